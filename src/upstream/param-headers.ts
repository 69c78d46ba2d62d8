/**
 * The SEP-2243 `Mcp-Param-*` headers of a 2026-era `tools/call` to an upstream: each argument the tool's listed
 * inputSchema marks with `x-mcp-header` (on a chain of `properties` from the root, the only place the annotation
 * counts) travels as the header it names too, literally when it is plain visible ASCII, else as
 * `=?base64?<Base64 of its UTF-8>?=`. A null, absent or non-primitive argument gets no header. The transport sends
 * them over HTTP; stdio has no headers. Bounded: the declarations are read as
 * shared/mcp-headers.ts bounds them, at most MAX_DECLARATIONS of them are mirrored, without recursion.
 */
import {
  argumentAt,
  BASE64_HEADER_CLOSE as BASE64_CLOSE,
  BASE64_HEADER_OPEN as BASE64_OPEN,
  headerAnnotations,
} from '../shared/index.ts';

/** Header arguments of one tool mirrored at most. */
const MAX_DECLARATIONS = 32;
/** An RFC 9110 token: what a header name may be. */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
/** The argument types the annotation is allowed on. */
const HEADER_TYPES = new Set(['string', 'integer', 'boolean']);

/** One argument mirrored in a header: its path through the arguments and the header name after the prefix. */
interface Declaration {
  path: readonly string[];
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
    const text = headerText(argumentAt(args, path));
    if (text === undefined) continue;
    headers ??= {};
    headers[`Mcp-Param-${header}`] = encoded(text);
  }
  return headers;
}

/** The schema's valid header declarations: a token name, a primitive type, each name once, MAX_DECLARATIONS at most. */
function declarationsOf(schema: unknown): readonly Declaration[] {
  if (typeof schema !== 'object' || schema === null) return [];
  const known = declarationsBySchema.get(schema);
  if (known !== undefined) return known;
  const found: Declaration[] = [];
  const names = new Set<string>();
  for (const { path, header, schema: argument } of headerAnnotations(schema)) {
    if (found.length >= MAX_DECLARATIONS) break;
    if (!TOKEN.test(header) || !HEADER_TYPES.has(argument.type as string) || names.has(header.toLowerCase()))
      continue;
    names.add(header.toLowerCase());
    found.push({ path, header });
  }
  declarationsBySchema.set(schema, found);
  return found;
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
