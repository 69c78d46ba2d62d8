/**
 * UTF-8 encoding and decoding (TextEncoder, TextDecoder with WHATWG replacement semantics) and forgiving
 * base64 (atob, btoa). Pure JavaScript, no host calls.
 */
import {
  ArrayBufferCtor,
  ErrorCtor,
  G,
  RangeErrorCtor,
  TypeErrorCtor,
  Uint8ArrayCtor,
  define,
  fromCharCode,
  isView,
  reflectApply,
} from './bridge.ts';

/** The UTF-8 bytes of a string; lone surrogates become U+FFFD. */
export function utf8Encode(input: unknown): Uint8Array {
  const text = String(input);
  const out = new Uint8ArrayCtor(text.length * 3);
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    let cp = text.charCodeAt(i);
    if (cp >= 0xd800 && cp <= 0xdbff && i + 1 < text.length) {
      const low = text.charCodeAt(i + 1);
      if (low >= 0xdc00 && low <= 0xdfff) {
        cp = 0x10000 + ((cp - 0xd800) << 10) + (low - 0xdc00);
        i++;
      } else {
        cp = 0xfffd;
      }
    } else if (cp >= 0xd800 && cp <= 0xdfff) {
      cp = 0xfffd;
    }
    if (cp < 0x80) {
      out[n++] = cp;
    } else if (cp < 0x800) {
      out[n++] = 0xc0 | (cp >> 6);
      out[n++] = 0x80 | (cp & 0x3f);
    } else if (cp < 0x10000) {
      out[n++] = 0xe0 | (cp >> 12);
      out[n++] = 0x80 | ((cp >> 6) & 0x3f);
      out[n++] = 0x80 | (cp & 0x3f);
    } else {
      out[n++] = 0xf0 | (cp >> 18);
      out[n++] = 0x80 | ((cp >> 12) & 0x3f);
      out[n++] = 0x80 | ((cp >> 6) & 0x3f);
      out[n++] = 0x80 | (cp & 0x3f);
    }
  }
  return out.slice(0, n);
}

/** Decodes UTF-8; invalid sequences become U+FFFD, or throw when `fatal`. */
export function utf8Decode(bytes: ArrayLike<number>, fatal: boolean, ignoreBOM: boolean): string {
  const units: number[] = [];
  let chunks = '';
  const flush = function (): void {
    chunks += reflectApply(fromCharCode, null, units);
    units.length = 0;
  };
  const push = function (cp: number): void {
    if (cp > 0xffff) {
      cp -= 0x10000;
      units.push(0xd800 + (cp >> 10), 0xdc00 + (cp & 0x3ff));
    } else {
      units.push(cp);
    }
    if (units.length >= 8192) flush();
  };
  const invalid = function (): void {
    if (fatal) throw new TypeErrorCtor('The encoded data was not valid for encoding utf-8');
    push(0xfffd);
  };
  const n = bytes.length;
  let i = 0;
  while (i < n) {
    const b = bytes[i] as number;
    if (b < 0x80) {
      push(b);
      i++;
      continue;
    }
    let need: number;
    let cp: number;
    let lower = 0x80;
    let upper = 0xbf;
    if (b >= 0xc2 && b <= 0xdf) {
      need = 1;
      cp = b & 0x1f;
    } else if (b >= 0xe0 && b <= 0xef) {
      need = 2;
      cp = b & 0x0f;
      if (b === 0xe0) lower = 0xa0;
      if (b === 0xed) upper = 0x9f;
    } else if (b >= 0xf0 && b <= 0xf4) {
      need = 3;
      cp = b & 0x07;
      if (b === 0xf0) lower = 0x90;
      if (b === 0xf4) upper = 0x8f;
    } else {
      invalid();
      i++;
      continue;
    }
    let j = i + 1;
    let ok = true;
    for (let k = 0; k < need; k++) {
      if (j >= n) {
        ok = false;
        break;
      }
      const c = bytes[j] as number;
      if (c < lower || c > upper) {
        ok = false;
        break;
      }
      lower = 0x80;
      upper = 0xbf;
      cp = (cp << 6) | (c & 0x3f);
      j++;
    }
    if (!ok) {
      invalid();
      i = j;
      continue;
    }
    push(cp);
    i = j;
  }
  flush();
  if (!ignoreBOM && chunks.charCodeAt(0) === 0xfeff) return chunks.slice(1);
  return chunks;
}

const UTF8_LABELS = [
  'utf-8',
  'utf8',
  'unicode-1-1-utf-8',
  'unicode11utf8',
  'unicode20utf8',
  'x-unicode20utf8',
];

class TextEncoder {
  get encoding(): string {
    return 'utf-8';
  }
  encode(input?: unknown): Uint8Array {
    return utf8Encode(input === undefined ? '' : input);
  }
  encodeInto(input: unknown, destination: Uint8Array): { read: number; written: number } {
    const text = String(input);
    let read = 0;
    let written = 0;
    for (let i = 0; i < text.length;) {
      const code = text.codePointAt(i) as number;
      const width = code > 0xffff ? 2 : 1;
      const encoded = utf8Encode(text.slice(i, i + width));
      if (written + encoded.length > destination.length) break;
      destination.set(encoded, written);
      written += encoded.length;
      read += width;
      i += width;
    }
    return { read, written };
  }
}

interface DecoderOptions {
  fatal?: unknown;
  ignoreBOM?: unknown;
}

class TextDecoder {
  private readonly _fatal: boolean;
  private readonly _ignoreBOM: boolean;
  constructor(label?: unknown, options?: DecoderOptions | null) {
    const name = label === undefined ? 'utf-8' : String(label).trim().toLowerCase();
    if (UTF8_LABELS.indexOf(name) < 0) throw new RangeErrorCtor('TextDecoder: unsupported encoding ' + name);
    this._fatal = !!options?.fatal;
    this._ignoreBOM = !!options?.ignoreBOM;
  }
  get encoding(): string {
    return 'utf-8';
  }
  get fatal(): boolean {
    return this._fatal;
  }
  get ignoreBOM(): boolean {
    return this._ignoreBOM;
  }
  decode(input?: unknown): string {
    if (input === undefined || input === null) return '';
    const view =
      input instanceof ArrayBufferCtor
        ? new Uint8ArrayCtor(input)
        : isView(input)
          ? new Uint8ArrayCtor(input.buffer, input.byteOffset, input.byteLength)
          : null;
    if (view === null)
      throw new TypeErrorCtor('TextDecoder.decode: expected an ArrayBuffer or a typed array');
    return utf8Decode(view, this._fatal, this._ignoreBOM);
  }
}
define(G, 'TextEncoder', TextEncoder);
define(G, 'TextDecoder', TextDecoder);

const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const B64_INDEX = new Map<string, number>();
for (let i = 0; i < B64.length; i++) B64_INDEX.set(B64.charAt(i), i);

function invalidCharacter(message: string): Error {
  const error = new ErrorCtor(message);
  error.name = 'InvalidCharacterError';
  return error;
}

function btoa(input?: unknown): string {
  if (arguments.length === 0) throw new TypeErrorCtor('btoa: 1 argument required');
  const text = String(input);
  let out = '';
  for (let i = 0; i < text.length; i += 3) {
    const a = text.charCodeAt(i);
    const b = i + 1 < text.length ? text.charCodeAt(i + 1) : -1;
    const c = i + 2 < text.length ? text.charCodeAt(i + 2) : -1;
    if (a > 0xff || b > 0xff || c > 0xff)
      throw invalidCharacter('btoa: the string contains characters outside Latin-1');
    out += B64.charAt(a >> 2);
    out += B64.charAt(((a & 3) << 4) | (b < 0 ? 0 : b >> 4));
    out += b < 0 ? '=' : B64.charAt(((b & 15) << 2) | (c < 0 ? 0 : c >> 6));
    out += c < 0 ? '=' : B64.charAt(c & 63);
  }
  return out;
}

function atob(input?: unknown): string {
  if (arguments.length === 0) throw new TypeErrorCtor('atob: 1 argument required');
  let text = String(input).replace(/[\t\n\f\r ]/g, '');
  if (text.length % 4 === 0) text = text.replace(/==?$/, '');
  if (text.length % 4 === 1 || /[^A-Za-z0-9+/]/.test(text)) {
    throw invalidCharacter('atob: the string is not correctly encoded');
  }
  let out = '';
  let buffer = 0;
  let bits = 0;
  for (let i = 0; i < text.length; i++) {
    buffer = (buffer << 6) | (B64_INDEX.get(text.charAt(i)) as number);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out += fromCharCode((buffer >> bits) & 0xff);
    }
  }
  return out;
}
define(G, 'btoa', btoa);
define(G, 'atob', atob);
