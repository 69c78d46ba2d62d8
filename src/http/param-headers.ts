/**
 * The `Mcp-Param-*` headers of a 2026-era `tools/call` (docs/security.md, "Mcp-Param headers"): every argument
 * the exposed tool's inputSchema marks with `x-mcp-header` and the body carries must come as the header it names,
 * literally or as `=?base64?<canonical Base64 of UTF-8>?=`, and equal the body's value; a missing, undecodable
 * or different header refuses the request. Bounded: at most MAX_PARAM_HEADERS such headers of
 * MAX_PARAM_HEADER_CHARS each, declarations found through at most MAX_SCHEMA_DEPTH levels of `properties`, once
 * per schema object.
 */
import { isRecord } from '../shared/index.ts';

/** More `Mcp-Param-*` headers than this on one request is refused. */
export const MAX_PARAM_HEADERS = 32;
/** A longer `Mcp-Param-*` header value is refused. */
export const MAX_PARAM_HEADER_CHARS = 8_192;
/** Declarations deeper than this many nested `properties` are not looked for. */
const MAX_SCHEMA_DEPTH = 8;

const HEADER_PREFIX = 'mcp-param-';
const BASE64_OPEN = '=?base64?';
const BASE64_CLOSE = '?=';
const BASE64_ALPHABET = /^[A-Za-z0-9+/]*={0,2}$/;
const DECIMAL = /^-?\d+(\.\d+)?$/;

/** One argument mirrored in a header: its path through the arguments and the header name after the prefix. */
interface Declaration {
  path: string[];
  header: string;
}

const declarationsBySchema = new WeakMap<object, readonly Declaration[]>();

/**
 * Why the request's `Mcp-Param-*` headers do not agree with the call's arguments under the tool's `inputSchema`,
 * or undefined when they do (or the schema declares no header arguments).
 */
export function paramHeaderProblem(
  inputSchema: unknown,
  args: unknown,
  headers: Headers,
): string | undefined {
  let present = 0;
  for (const [name, value] of headers) {
    if (!name.startsWith(HEADER_PREFIX)) continue;
    present += 1;
    if (present > MAX_PARAM_HEADERS) return `more than ${MAX_PARAM_HEADERS} Mcp-Param-* headers`;
    if (value.length > MAX_PARAM_HEADER_CHARS)
      return `the ${name} header is longer than ${MAX_PARAM_HEADER_CHARS} characters`;
  }
  for (const declaration of declarationsOf(inputSchema)) {
    const bodyValue = valueAt(args, declaration.path);
    // A null or absent argument expects no header; one that is not a primitive cannot be mirrored in one.
    if (typeof bodyValue !== 'string' && typeof bodyValue !== 'number' && typeof bodyValue !== 'boolean')
      continue;
    const name = `Mcp-Param-${declaration.header}`;
    const argument = declaration.path.join('.');
    const raw = headers.get(name);
    if (raw === null) return `the body carries argument ${argument} but the ${name} header is missing`;
    const decoded = decodeHeaderValue(raw);
    if (decoded === undefined) return `the ${name} header is not canonical Base64 of UTF-8 text`;
    if (!sameValue(decoded, bodyValue))
      return `the ${name} header does not match argument ${argument} of the body`;
  }
  return undefined;
}

/** The header value as text: the payload of a Base64 sentinel, decoded, or the value itself; undefined when invalid. */
export function decodeHeaderValue(value: string): string | undefined {
  if (!(value.startsWith(BASE64_OPEN) && value.endsWith(BASE64_CLOSE))) return value;
  const payload = value.slice(BASE64_OPEN.length, value.length - BASE64_CLOSE.length);
  if (payload.length % 4 !== 0 || !BASE64_ALPHABET.test(payload)) return undefined;
  const bytes = Buffer.from(payload, 'base64');
  // Canonical only: stray bits in the last character would decode the same from two different headers.
  if (bytes.toString('base64') !== payload) return undefined;
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return undefined;
  }
}

/** Strings compare exactly, booleans as `true`/`false`, numbers by value when the header is a decimal. */
function sameValue(header: string, body: string | number | boolean): boolean {
  if (typeof body === 'string') return header === body;
  if (typeof body === 'boolean') return header === String(body);
  return DECIMAL.test(header) && Number(header) === body;
}

/** The schema's header declarations, found once per schema object (the registry keeps each tool's schema). */
function declarationsOf(schema: unknown): readonly Declaration[] {
  if (!isRecord(schema)) return [];
  const known = declarationsBySchema.get(schema);
  if (known !== undefined) return known;
  const found: Declaration[] = [];
  // A flat walk over `properties` only (where the annotation is allowed), bounded in depth and count.
  const queue: { node: Record<string, unknown>; path: string[] }[] = [{ node: schema, path: [] }];
  for (let index = 0; index < queue.length; index += 1) {
    const next = queue[index];
    if (next === undefined) break;
    const properties = next.node['properties'];
    if (!isRecord(properties)) continue;
    for (const [key, child] of Object.entries(properties)) {
      if (!isRecord(child)) continue;
      const path = [...next.path, key];
      const header = child['x-mcp-header'];
      if (typeof header === 'string' && header.length > 0 && found.length <= MAX_PARAM_HEADERS)
        found.push({ path, header });
      if (path.length < MAX_SCHEMA_DEPTH) queue.push({ node: child, path });
    }
  }
  declarationsBySchema.set(schema, found);
  return found;
}

function valueAt(root: unknown, path: readonly string[]): unknown {
  let node = root;
  for (const key of path) {
    if (!isRecord(node)) return undefined;
    node = node[key];
  }
  return node;
}
