// Every model-visible string of a tool definition, with a readable path to it (R-POISON-SCOPE).
import type { McpToolDefinition } from '../risk/index.ts';

/** One string a model can read, and where it sits in the definition. */
export interface VisibleString {
  /** E.g. `description`, `inputSchema.properties.path.description`, `inputSchema.required[0]`. */
  readonly fieldPath: string;
  readonly text: string;
}

interface PathNode {
  readonly parent: PathNode | null;
  readonly segment: string;
}

const PLAIN_KEY = /^[A-Za-z_$][A-Za-z0-9_$-]*$/;

function keySegment(key: string): string {
  return PLAIN_KEY.test(key) ? `.${key}` : `[${JSON.stringify(key)}]`;
}

// Paths are built only when asked for, so a deeply nested schema costs O(size), not O(depth²).
function render(node: PathNode): string {
  const parts: string[] = [];
  for (let at: PathNode | null = node; at !== null; at = at.parent) parts.push(at.segment);
  return parts.reverse().join('');
}

/**
 * Visits the strings of a JSON value depth-first in document order: each object key (a hit in a key
 * reports the key's own path, e.g. `inputSchema.properties.path`) and each string value. Iterative, so
 * any depth is safe; an object met twice is visited once.
 */
function visitJson(root: unknown, rootSegment: string, visit: (node: PathNode, text: string) => void): void {
  const seen = new WeakSet<object>();
  const stack: Array<{ value: unknown; node: PathNode }> = [
    { value: root, node: { parent: null, segment: rootSegment } },
  ];
  while (stack.length > 0) {
    const { value, node } = stack.pop() as { value: unknown; node: PathNode };
    if (typeof value === 'string') {
      visit(node, value);
      continue;
    }
    if (typeof value !== 'object' || value === null || seen.has(value)) continue;
    seen.add(value);
    const children: Array<{ value: unknown; node: PathNode; key?: string }> = Array.isArray(value)
      ? value.map((item, index) => ({ value: item, node: { parent: node, segment: `[${index}]` } }))
      : Object.entries(value).map(([key, item]) => ({
          value: item,
          node: { parent: node, segment: keySegment(key) },
          key,
        }));
    for (let i = children.length - 1; i >= 0; i -= 1) {
      const child = children[i] as { value: unknown; node: PathNode; key?: string };
      stack.push({ value: child.value, node: child.node });
      if (child.key !== undefined) stack.push({ value: child.key, node: child.node });
    }
  }
}

const NAMED_SLOTS = new Set(['.description', '.title', '.default', '.type']);

/**
 * The kind of slot a string sits in, read from the last segments of its path without rendering it: name,
 * title, description, key (a property name), enum, default, examples, type, or other. The same answer as
 * `slotOf` of the rendered path (tool-reading.ts).
 */
function slotOfNode(node: PathNode): string {
  const { segment, parent } = node;
  if (parent === null) return 'other';
  if (parent.segment === '.enum' && segment.startsWith('[') && /^\[\d+\]$/.test(segment)) return 'enum';
  if (parent.segment === '.examples' && segment.startsWith('[') && /^\[\d+\]$/.test(segment))
    return 'examples';
  if (NAMED_SLOTS.has(segment)) return segment.slice(1);
  if (parent.segment === '.properties') return 'key';
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
    if (typeof text === 'string')
      visit(
        text,
        () => field,
        () => field,
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
