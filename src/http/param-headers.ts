/**
 * The `Mcp-Param-*` headers of a 2026-era `tools/call` (docs/security.md, "Mcp-Param headers"): every argument
 * the exposed tool's inputSchema marks with `x-mcp-header` and the body carries must come as the header it names,
 * literally or as `=?base64?<canonical Base64 of UTF-8>?=`, and equal the body's value; a missing, undecodable
 * or different header refuses the request. Bounded: at most MAX_PARAM_HEADERS such headers of
 * MAX_PARAM_HEADER_CHARS each; the declarations are read as shared/mcp-headers.ts bounds them.
 */
import {
  argumentAt,
  BASE64_HEADER_CLOSE as BASE64_CLOSE,
  BASE64_HEADER_OPEN as BASE64_OPEN,
  headerAnnotations,
} from '../shared/index.ts';

/** More `Mcp-Param-*` headers than this on one request is refused. */
export const MAX_PARAM_HEADERS = 32;
/** A longer `Mcp-Param-*` header value is refused. */
export const MAX_PARAM_HEADER_CHARS = 8_192;

const HEADER_PREFIX = 'mcp-param-';
const BASE64_ALPHABET = /^[A-Za-z0-9+/]*={0,2}$/;
const DECIMAL = /^-?\d+(\.\d+)?$/;

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
  const declarations = headerAnnotations(inputSchema);
  // One more declaration than headers allowed is read, so a tool that needs too many is refused, not cut short.
  const read = Math.min(declarations.length, MAX_PARAM_HEADERS + 1);
  for (let index = 0; index < read; index += 1) {
    const declaration = declarations[index] as (typeof declarations)[number];
    const bodyValue = argumentAt(args, declaration.path);
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
