/**
 * Secrets as handles (docs/design/secrets-as-handles.md): for one run, every secret value gets a random handle,
 * a token that means nothing outside this run. Tool code only ever holds handles; the egress guard reveals
 * them where a request leaves for a host the tool lists, and conceals the values again (as handles) in
 * whatever comes back, so that code cannot read a secret an allowed server echoes.
 */
import { randomBytes } from 'node:crypto';
import { MIN_SECRET_LENGTH } from '../../secrets/index.ts';

/** How a revealed value is written where it lands (a URL needs percent-encoding, a JSON body escaping). */
export type RevealEncoding = 'raw' | 'url' | 'json';

/** The handles of one run and the values behind them. */
export interface SecretVault {
  /** True when the run has no secret (every operation is the identity). */
  readonly empty: boolean;
  /** The handle of `value`, minted on first use (a value derived from secrets, such as a Basic header). */
  handleFor(value: string): string;
  /** `text` with every known value (raw, URL-encoded or JSON-escaped) replaced by its handle. */
  conceal(text: string): string;
  /** `bytes` with every known value's UTF-8 forms replaced by its handle; the same array when none occurs. */
  concealBytes(bytes: Uint8Array): Uint8Array;
  /**
   * How many bytes to drop at each edge of a body slice so that no part of a value survives a cut: the longest
   * proper suffix of a value's form at the start (when the slice starts mid-body) and the longest proper prefix
   * at the end (when it was cut short); all of it when the slice lies inside a value.
   */
  partialEdges(bytes: Uint8Array, cutStart: boolean, cutEnd: boolean): { start: number; end: number };
  /** `text` with every handle replaced by its value, written in `encoding`. */
  reveal(text: string, encoding?: RevealEncoding): string;
  /** True when `text` holds a handle of this run (any letter case: a URL host is lower-cased). */
  holdsHandle(text: string): boolean;
  /** Every value the run knows, derived ones included: the masker's list. */
  values(): string[];
}

const HANDLE_PREFIX = 'pcsecret_';

/** True when `text` looks like it holds a secret handle of some run (for messages and tests). */
export function looksLikeHandle(text: string): boolean {
  return /pcsecret_[0-9a-f]{32}/i.test(text);
}

function encode(value: string, encoding: RevealEncoding): string {
  if (encoding === 'url') return encodeURIComponent(value);
  if (encoding === 'json') return JSON.stringify(value).slice(1, -1);
  return value;
}

function replaceAll(text: string, from: string, to: string): string {
  return text.includes(from) ? text.split(from).join(to) : text;
}

function replaceBytes(data: Buffer, from: Buffer, to: Buffer): Buffer {
  let at = data.indexOf(from);
  if (at === -1) return data;
  const parts: Buffer[] = [];
  let start = 0;
  while (at !== -1) {
    parts.push(data.subarray(start, at), to);
    start = at + from.length;
    at = data.indexOf(from, start);
  }
  parts.push(data.subarray(start));
  return Buffer.concat(parts);
}

/**
 * Builds the vault of one run over the resolved secret values. Values shorter than the masker's minimum stay
 * out (replacing them would rewrite ordinary text); the note in docs/security.md says so.
 */
export function createSecretVault(secrets: readonly string[]): SecretVault {
  const byValue = new Map<string, string>();
  const byHandle = new Map<string, string>();
  // Longest first, so that no fragment of a longer value survives a shorter one's replacement.
  let forms: Array<{ form: string; handle: string }> = [];

  const mint = (value: string): string => {
    const known = byValue.get(value);
    if (known !== undefined) return known;
    const handle = `${HANDLE_PREFIX}${randomBytes(16).toString('hex')}`;
    byValue.set(value, handle);
    byHandle.set(handle, value);
    const variants = new Set([value, encode(value, 'url'), encode(value, 'json')]);
    forms = [...forms, ...[...variants].map((form) => ({ form, handle }))].sort(
      (a, b) => b.form.length - a.form.length,
    );
    return handle;
  };
  for (const value of secrets) if (value.length >= MIN_SECRET_LENGTH) mint(value);

  return {
    get empty() {
      return byValue.size === 0;
    },
    handleFor: mint,
    conceal(text) {
      let out = text;
      for (const { form, handle } of forms) out = replaceAll(out, form, handle);
      return out;
    },
    concealBytes(bytes) {
      if (forms.length === 0) return bytes;
      const original = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
      let out = original;
      for (const { form, handle } of forms)
        out = replaceBytes(out, Buffer.from(form, 'utf8'), Buffer.from(handle, 'utf8'));
      return out === original ? bytes : new Uint8Array(out.buffer, out.byteOffset, out.byteLength);
    },
    partialEdges(bytes, cutStart, cutEnd) {
      const data = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
      if (!cutStart && !cutEnd) return { start: 0, end: 0 };
      // A slice that lies inside a value (a page narrower than the value) is all value: nothing of it is shown.
      const inside = forms.some(({ form }) => {
        const raw = Buffer.from(form, 'utf8');
        return raw.length > data.length && data.length > 0 && raw.includes(data);
      });
      if (inside) return { start: data.length, end: 0 };
      let start = 0;
      let end = 0;
      for (const { form } of forms) {
        const raw = Buffer.from(form, 'utf8');
        for (let k = Math.min(raw.length - 1, data.length); k > 0; k -= 1) {
          if (cutStart && k > start && data.subarray(0, k).equals(raw.subarray(raw.length - k))) start = k;
          if (cutEnd && k > end && data.subarray(data.length - k).equals(raw.subarray(0, k))) end = k;
        }
      }
      return { start, end: Math.min(end, data.length - start) };
    },
    reveal(text, encoding = 'raw') {
      if (!text.toLowerCase().includes(HANDLE_PREFIX)) return text;
      let out = text;
      for (const [handle, value] of byHandle) out = replaceAll(out, handle, encode(value, encoding));
      return out;
    },
    holdsHandle(text) {
      const lower = text.toLowerCase();
      if (!lower.includes(HANDLE_PREFIX)) return false;
      for (const handle of byHandle.keys()) if (lower.includes(handle)) return true;
      return false;
    },
    values: () => [...byValue.keys()],
  };
}
