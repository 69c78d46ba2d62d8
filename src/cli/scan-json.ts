/**
 * Reading the files `portcullis scan` is given: a bounded read, JSON with the comments and trailing commas
 * editors allow in `mcp.json` files, and the line and column of each member up to a small depth (SARIF points
 * into the file with them). Everything here is linear in the file's size.
 */
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';

/** The largest file `scan` reads (client configs and tool lists are kilobytes; this leaves room for big lists). */
export const MAX_SCAN_FILE_BYTES = 16 * 1024 * 1024;
/** Members deeper than this get no recorded position (the deepest one SARIF needs is `servers/x/tools/3`). */
const MAX_LOCATED_DEPTH = 4;

/** A file `scan` could not use: the CLI prints the message and exits 2. */
export class ScanInputError extends Error {
  override name = 'ScanInputError';
}

/** A 1-based position in a text. */
export interface TextPosition {
  line: number;
  column: number;
}

/** A parsed JSON file with the positions of its members, keyed by JSON Pointer (`/mcpServers/github`). */
export interface LocatedJson {
  value: unknown;
  positionOf(pointer: string): TextPosition | undefined;
}

/** Reads at most `limit` bytes of `file`; a larger file is refused before any of it is parsed. */
export function readBoundedFile(file: string, limit = MAX_SCAN_FILE_BYTES): string {
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch (error) {
    throw new ScanInputError(`cannot read ${file}: ${(error as Error).message}`);
  }
  try {
    if (!fstatSync(fd).isFile()) throw new ScanInputError(`${file} is not a regular file`);
    // Read one byte past the limit rather than trusting the size: the file may grow while it is read.
    const buffer = Buffer.alloc(limit + 1);
    let length = 0;
    for (let n = 1; n > 0 && length <= limit; length += n)
      n = readSync(fd, buffer, length, limit + 1 - length, null);
    if (length > limit)
      throw new ScanInputError(
        `${file} is larger than ${limit / (1024 * 1024)} MB; scan reads at most that much`,
      );
    return buffer.toString('utf8', 0, length).replace(/^\uFEFF/, '');
  } finally {
    closeSync(fd);
  }
}

/**
 * Blanks out `//` and `/* *\/` comments and trailing commas with spaces, so offsets stay those of the original
 * text and JSON.parse's errors point at the right place.
 */
export function blankJsonExtras(text: string): string {
  const out = text.split('');
  let i = 0;
  let lastComma = -1;
  while (i < text.length) {
    const c = text[i];
    if (c === '"') {
      lastComma = -1;
      for (i += 1; i < text.length && text[i] !== '"'; i += text[i] === '\\' ? 2 : 1);
      i += 1;
    } else if (c === '/' && text[i + 1] === '/') {
      for (; i < text.length && text[i] !== '\n'; i += 1) out[i] = ' ';
    } else if (c === '/' && text[i + 1] === '*') {
      const end = text.indexOf('*/', i + 2);
      const stop = end < 0 ? text.length : end + 2;
      for (; i < stop; i += 1) if (text[i] !== '\n') out[i] = ' ';
    } else if (c === ',') {
      lastComma = i;
      i += 1;
    } else if ((c === '}' || c === ']') && lastComma >= 0) {
      out[lastComma] = ' ';
      lastComma = -1;
      i += 1;
    } else {
      if (c !== ' ' && c !== '\t' && c !== '\n' && c !== '\r') lastComma = -1;
      i += 1;
    }
  }
  return out.join('');
}

function lineStarts(text: string): number[] {
  const starts = [0];
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
  return starts;
}

function positionAt(starts: readonly number[], offset: number): TextPosition {
  let low = 0;
  let high = starts.length - 1;
  while (low < high) {
    const mid = (low + high + 1) >> 1;
    if ((starts[mid] ?? 0) <= offset) low = mid;
    else high = mid - 1;
  }
  return { line: low + 1, column: offset - (starts[low] ?? 0) + 1 };
}

const escapeSegment = (key: string) => key.replace(/~/g, '~0').replace(/\//g, '~1');

/**
 * The offset of each object member's key and each array element, by JSON Pointer, for members no deeper than
 * MAX_LOCATED_DEPTH. `text` must already be valid JSON (after blankJsonExtras).
 */
function memberOffsets(text: string): Map<string, number> {
  const offsets = new Map<string, number>();
  const stack: { pointer: string; array: boolean; index: number }[] = [];
  let pendingKey: string | undefined;
  for (let i = 0; i < text.length; i += 1) {
    const c = text[i];
    const top = stack[stack.length - 1];
    if (c === '"') {
      const start = i;
      for (i += 1; text[i] !== '"'; i += text[i] === '\\' ? 2 : 1);
      // A string inside an object before its colon is a key.
      if (top && !top.array && pendingKey === undefined) {
        pendingKey = JSON.parse(text.slice(start, i + 1)) as string;
        if (stack.length <= MAX_LOCATED_DEPTH)
          offsets.set(`${top.pointer}/${escapeSegment(pendingKey)}`, start);
      } else if (
        top?.array &&
        stack.length <= MAX_LOCATED_DEPTH &&
        !offsets.has(`${top.pointer}/${top.index}`)
      ) {
        offsets.set(`${top.pointer}/${top.index}`, start);
      }
      continue;
    }
    if (c === ' ' || c === '\t' || c === '\n' || c === '\r' || c === ':') continue;
    if (c === ',') {
      if (top?.array) top.index += 1;
      else pendingKey = undefined;
      continue;
    }
    if (c === '}' || c === ']') {
      stack.pop();
      pendingKey = undefined;
      continue;
    }
    const pointer =
      top === undefined
        ? ''
        : top.array
          ? `${top.pointer}/${top.index}`
          : `${top.pointer}/${escapeSegment(pendingKey ?? '')}`;
    if (top?.array && stack.length <= MAX_LOCATED_DEPTH && !offsets.has(pointer)) offsets.set(pointer, i);
    if (c === '{' || c === '[') {
      stack.push({ pointer, array: c === '[', index: 0 });
      pendingKey = undefined;
    }
  }
  return offsets;
}

/** Parses `text` (JSON with comments and trailing commas) from `file`; throws ScanInputError with line and column. */
export function parseLocatedJson(text: string, file: string): LocatedJson {
  const plain = blankJsonExtras(text);
  let value: unknown;
  try {
    value = JSON.parse(plain);
  } catch (error) {
    const message = (error as Error).message;
    const at = /position (\d+)/.exec(message);
    const where = at
      ? (({ line, column }) => ` at line ${line}, column ${column}`)(
          positionAt(lineStarts(text), Number(at[1])),
        )
      : '';
    throw new ScanInputError(`${file}${where}: not valid JSON: ${message}`);
  }
  let located: { starts: number[]; offsets: Map<string, number> } | undefined;
  return {
    value,
    positionOf(pointer) {
      located ??= { starts: lineStarts(text), offsets: memberOffsets(plain) };
      const offset = located.offsets.get(pointer);
      return offset === undefined ? undefined : positionAt(located.starts, offset);
    },
  };
}
