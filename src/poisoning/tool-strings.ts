// Every model-visible string of a tool definition, with a readable path to it (R-POISON-SCOPE).
import type { McpToolDefinition } from '../risk/index.ts';

/** One string a model can read, and where it sits in the definition. */
export interface VisibleString {
  /** E.g. `description`, `inputSchema.properties.path.description`, `inputSchema.required[0]`. */
  readonly fieldPath: string;
  readonly text: string;
}

// A node holds its key (or array index) and renders its segment only when a path is asked for, so a string
// costs no segment text unless it is reported. The root's key is its segment as written.
interface PathNode {
  readonly parent: PathNode | null;
  readonly key: string | number;
}

const PLAIN_KEY = /^[A-Za-z_$][A-Za-z0-9_$-]*$/;

function segmentOf(node: PathNode): string {
  const { key } = node;
  if (node.parent === null) return String(key);
  if (typeof key === 'number') return `[${key}]`;
  return PLAIN_KEY.test(key) ? `.${key}` : `[${JSON.stringify(key)}]`;
}

// Paths are built only when asked for, so a deeply nested schema costs O(size), not O(depth²).
function render(node: PathNode): string {
  const parts: string[] = [];
  for (let at: PathNode | null = node; at !== null; at = at.parent) parts.push(segmentOf(at));
  return parts.reverse().join('');
}

/**
 * Visits the strings of a JSON value depth-first in document order: each object key (a hit in a key
 * reports the key's own path, e.g. `inputSchema.properties.path`) and each string value. Iterative, so
 * any depth is safe; an object met twice is visited once.
 */
function visitJson(root: unknown, rootSegment: string, visit: (node: PathNode, text: string) => void): void {
  const seen = new WeakSet<object>();
  // Two stacks in step: the value to visit and its node.
  const values: unknown[] = [root];
  const nodes: PathNode[] = [{ parent: null, key: rootSegment }];
  while (values.length > 0) {
    const value = values.pop();
    const node = nodes.pop() as PathNode;
    if (typeof value === 'string') {
      visit(node, value);
      continue;
    }
    if (typeof value !== 'object' || value === null || seen.has(value)) continue;
    seen.add(value);
    // Pushed last to first, each key after its value, so the first key is visited first, then its value.
    if (Array.isArray(value)) {
      for (let i = value.length - 1; i >= 0; i -= 1) {
        values.push(value[i]);
        nodes.push({ parent: node, key: i });
      }
      continue;
    }
    const record = value as { readonly [key: string]: unknown };
    const keys = Object.keys(record);
    for (let i = keys.length - 1; i >= 0; i -= 1) {
      const key = keys[i] as string;
      const child: PathNode = { parent: node, key };
      values.push(record[key], key);
      nodes.push(child, child);
    }
  }
}

const NAMED_SLOTS = new Set(['description', 'title', 'default', 'type']);

/** The slot of the tool's own title, which is prose; a schema's or an annotation's `title` is the slot `title`. */
export const TOOL_TITLE = 'tool-title';

/** JSON Schema keywords whose value is a URI by the specification: the slot `meta`. */
export const META_KEYWORDS: ReadonlySet<string> = new Set([
  '$schema',
  '$id',
  '$ref',
  '$dynamicRef',
  '$anchor',
  '$dynamicAnchor',
]);

// Whether a node sits under the object key `key` (never the root, whose key is a segment as written).
function isUnder(node: PathNode, key: string): boolean {
  return node.parent !== null && node.key === key;
}

/**
 * The kind of slot a string sits in, read from the last segments of its path without rendering it: key (a
 * property name, whatever it is), enum, examples, description, title, default, type, meta, or other. The same answer as
 * `slotOf` of the rendered path (tool-reading.ts).
 */
function slotOfNode(node: PathNode): string {
  const { key, parent } = node;
  if (parent === null) return 'other';
  if (typeof key === 'number') {
    if (isUnder(parent, 'enum')) return 'enum';
    if (isUnder(parent, 'examples')) return 'examples';
  } else if (isUnder(parent, 'properties')) return 'key';
  else if (NAMED_SLOTS.has(key)) return key;
  if (typeof key === 'string' && META_KEYWORDS.has(key)) return 'meta';
  return 'other';
}

/**
 * Calls `visit` for every model-visible string of a tool, in this order: name, title, description, every
 * key and string inside inputSchema, then outputSchema, then annotations (title and any other string).
 * `path()` renders the field path on demand; `slot()` names the kind of slot without rendering it.
 */
export function forEachVisibleString(
  tool: McpToolDefinition,
  visit: (text: string, path: () => string, slot: () => string) => void,
): void {
  for (const field of ['name', 'title', 'description'] as const) {
    const text = tool[field];
    const slot = field === 'title' ? TOOL_TITLE : field;
    if (typeof text === 'string')
      visit(
        text,
        () => field,
        () => slot,
      );
  }
  for (const field of ['inputSchema', 'outputSchema', 'annotations'] as const) {
    visitJson(tool[field], field, (node, text) =>
      visit(
        text,
        () => render(node),
        () => slotOfNode(node),
      ),
    );
  }
}

/** Every model-visible string of a tool with its field path, in scan order. */
export function collectVisibleStrings(tool: McpToolDefinition): VisibleString[] {
  const strings: VisibleString[] = [];
  forEachVisibleString(tool, (text, path) => strings.push({ fieldPath: path(), text }));
  return strings;
}
