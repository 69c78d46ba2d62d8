/**
 * The SEP-2243 `Mcp-Param-*` headers of a 2026-era `tools/call` to an upstream: each argument the tool's listed
 * inputSchema marks with `x-mcp-header` (on a chain of `properties` from the root, the only place the annotation
 * counts) travels as the header it names too, literally when it is plain visible ASCII, else as
 * `=?base64?<Base64 of its UTF-8>?=`. A null, absent or non-primitive argument gets no header. The transport sends
 * them over HTTP; stdio has no headers. Bounded: declarations are looked for through at most MAX_SCHEMA_DEPTH
 * levels of `properties`, at most MAX_DECLARATIONS of them, once per schema object, without recursion.
 */
import { isRecord } from '../shared/index.ts';

/** Declarations deeper than this many nested `properties` are not looked for. */
const MAX_SCHEMA_DEPTH = 8;
/** Header arguments of one tool mirrored at most. */
const MAX_DECLARATIONS = 32;
/** An RFC 9110 token: what a header name may be. */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
/** The argument types the annotation is allowed on. */
const HEADER_TYPES = new Set(['string', 'integer', 'boolean']);
const BASE64_OPEN = '=?base64?';
const BASE64_CLOSE = '?=';

/** One argument mirrored in a header: its path through the arguments and the header name after the prefix. */
interface Declaration {
  path: string[];
  header: string;
}

const declarationsBySchema = new WeakMap<object, readonly Declaration[]>();

/** The `Mcp-Param-*` headers of a call of a tool with `inputSchema`; undefined when it declares none. */
export function paramHeaders(
  inputSchema: unknown,
  args: Record<string, unknown>,
): Record<string, string> | undefined {
  let headers: Record<string, string> | undefined;
  for (const { path, header } of declarationsOf(inputSchema)) {
    const text = headerText(valueAt(args, path));
    if (text === undefined) continue;
    headers ??= {};
    headers[`Mcp-Param-${header}`] = encoded(text);
  }
  return headers;
}

/** The schema's header declarations (a flat walk over `properties` only), found once per schema object. */
function declarationsOf(schema: unknown): readonly Declaration[] {
  if (!isRecord(schema)) return [];
  const known = declarationsBySchema.get(schema);
  if (known !== undefined) return known;
  const found: Declaration[] = [];
  const names = new Set<string>();
  const queue: { node: Record<string, unknown>; path: string[] }[] = [{ node: schema, path: [] }];
  for (let index = 0; index < queue.length && found.length < MAX_DECLARATIONS; index += 1) {
    const next = queue[index] as (typeof queue)[number];
    const properties = next.node.properties;
    if (!isRecord(properties)) continue;
    for (const key in properties) {
      const child = properties[key];
      if (!isRecord(child)) continue;
      const path = [...next.path, key];
      const header = child['x-mcp-header'];
      if (
        typeof header === 'string' &&
        TOKEN.test(header) &&
        HEADER_TYPES.has(child.type as string) &&
        !names.has(header.toLowerCase()) &&
        found.length < MAX_DECLARATIONS
      ) {
        names.add(header.toLowerCase());
        found.push({ path, header });
      }
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

/** A primitive argument as header text; undefined for anything a header cannot carry. */
function headerText(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (
    typeof value === 'number' &&
    Number.isFinite(value) &&
    !(Number.isInteger(value) && !Number.isSafeInteger(value))
  )
    return String(value);
  return undefined;
}

/** The text as it goes in the header: literal when it is plain visible ASCII (tab allowed), else the Base64 form. */
function encoded(text: string): string {
  let literal =
    text.length > 0 && text === text.trim() && !(text.startsWith(BASE64_OPEN) && text.endsWith(BASE64_CLOSE));
  for (let i = 0; literal && i < text.length; i += 1) {
    const code = text.charCodeAt(i);
    literal = code === 9 || (code >= 32 && code <= 126);
  }
  return literal ? text : `${BASE64_OPEN}${Buffer.from(text, 'utf8').toString('base64')}${BASE64_CLOSE}`;
}
