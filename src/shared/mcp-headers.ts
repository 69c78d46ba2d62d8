/**
 * The 2026-07-28 per-request headers both hops read: which body field `Mcp-Name` mirrors, and the SEP-2243
 * `x-mcp-header` annotations of a tool's inputSchema, as both hops read them: the gateway checks a
 * client's `Mcp-Param-*` headers against them (http/param-headers.ts) and sets them on an upstream call
 * (upstream/param-headers.ts). Found once per schema object, by a flat walk over chains of `properties` from the
 * root (the only place the annotation counts), at most MAX_SCHEMA_DEPTH levels deep and MAX_ANNOTATIONS in all.
 */
import { isRecord } from './json.ts';

/** Declarations deeper than this many nested `properties` are not looked for. */
const MAX_SCHEMA_DEPTH = 8;
/** Annotations of one schema read at most; each hop then applies its own, smaller bound. */
const MAX_ANNOTATIONS = 64;

/** How a header value that is not plain visible ASCII is wrapped: `=?base64?<Base64 of its UTF-8>?=`. */
export const BASE64_HEADER_OPEN = '=?base64?';
export const BASE64_HEADER_CLOSE = '?=';

/** One annotated argument: its path through the arguments, the header name after the prefix, its own schema. */
export interface HeaderAnnotation {
  readonly path: readonly string[];
  readonly header: string;
  readonly schema: Readonly<Record<string, unknown>>;
}

const annotationsBySchema = new WeakMap<object, readonly HeaderAnnotation[]>();

/** The non-empty string `x-mcp-header` annotations of `schema`, in breadth-first order. */
export function headerAnnotations(schema: unknown): readonly HeaderAnnotation[] {
  if (!isRecord(schema)) return [];
  const known = annotationsBySchema.get(schema);
  if (known !== undefined) return known;
  const found: HeaderAnnotation[] = [];
  const queue: { node: Record<string, unknown>; path: string[] }[] = [{ node: schema, path: [] }];
  for (let index = 0; index < queue.length && found.length < MAX_ANNOTATIONS; index += 1) {
    const next = queue[index] as (typeof queue)[number];
    const properties = next.node.properties;
    if (!isRecord(properties)) continue;
    for (const key in properties) {
      const child = properties[key];
      if (!isRecord(child)) continue;
      const path = [...next.path, key];
      const header = child['x-mcp-header'];
      if (typeof header === 'string' && header.length > 0 && found.length < MAX_ANNOTATIONS)
        found.push({ path, header, schema: child });
      if (path.length < MAX_SCHEMA_DEPTH) queue.push({ node: child, path });
    }
  }
  annotationsBySchema.set(schema, found);
  return found;
}

/** The value at `path` through nested objects of `root`, or undefined where the path leaves them. */
export function argumentAt(root: unknown, path: readonly string[]): unknown {
  let node = root;
  for (const key of path) {
    if (!isRecord(node)) return undefined;
    node = node[key];
  }
  return node;
}

/** The body field a 2026-07-28 request's `Mcp-Name` header mirrors, by method (methods without one are absent). */
export const MCP_NAME_FIELD: Readonly<Record<string, string>> = Object.freeze({
  'tools/call': 'name',
  'prompts/get': 'name',
  'resources/read': 'uri',
  'tasks/get': 'taskId',
  'tasks/update': 'taskId',
  'tasks/cancel': 'taskId',
});
