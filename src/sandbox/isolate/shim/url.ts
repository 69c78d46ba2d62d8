/**
 * URL (parsed by the host's WHATWG parser through a callback that returns plain fields) and URLSearchParams
 * (application/x-www-form-urlencoded, pure JavaScript), kept in sync both ways.
 */
import { G, TypeErrorCtor, define, defineProperty, fromCharCode, hostReply, objectKeys } from './bridge.ts';
import { utf8Decode, utf8Encode } from './encoding.ts';
import type { UrlFields } from './types.ts';

type Pair = [string, string];

function formDecode(text: string): string {
  const bytes: number[] = [];
  const source = utf8Encode(text.replace(/\+/g, ' '));
  for (let i = 0; i < source.length; i++) {
    const b = source[i] as number;
    if (b === 0x25 && i + 2 < source.length) {
      const hex = fromCharCode(source[i + 1] as number, source[i + 2] as number);
      if (/^[0-9A-Fa-f]{2}$/.test(hex)) {
        bytes.push(parseInt(hex, 16));
        i += 2;
        continue;
      }
    }
    bytes.push(b);
  }
  return utf8Decode(bytes, false, true);
}

function formEncode(text: string): string {
  const bytes = utf8Encode(text);
  let out = '';
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i] as number;
    if (
      (b >= 0x30 && b <= 0x39) ||
      (b >= 0x41 && b <= 0x5a) ||
      (b >= 0x61 && b <= 0x7a) ||
      b === 0x2a ||
      b === 0x2d ||
      b === 0x2e ||
      b === 0x5f
    ) {
      out += fromCharCode(b);
    } else if (b === 0x20) {
      out += '+';
    } else {
      out += '%' + (b < 16 ? '0' : '') + b.toString(16).toUpperCase();
    }
  }
  return out;
}

function parseForm(text: string): Pair[] {
  const list: Pair[] = [];
  const body = text.charAt(0) === '?' ? text.slice(1) : text;
  if (body === '') return list;
  const parts = body.split('&');
  for (const part of parts) {
    if (part === '') continue;
    const eq = part.indexOf('=');
    const name = eq < 0 ? part : part.slice(0, eq);
    const value = eq < 0 ? '' : part.slice(eq + 1);
    list.push([formDecode(name), formDecode(value)]);
  }
  return list;
}

function serializeForm(list: Pair[]): string {
  let out = '';
  for (let i = 0; i < list.length; i++) {
    const [name, value] = list[i] as Pair;
    if (i > 0) out += '&';
    out += formEncode(name) + '=' + formEncode(value);
  }
  return out;
}

interface ParamsState {
  list: Pair[];
  url: URL | null;
}

const paramsState = new WeakMap<object, ParamsState>();

function paramsOf(self: object): ParamsState {
  const state = paramsState.get(self);
  if (state === undefined) throw new TypeErrorCtor('Illegal invocation');
  return state;
}

function paramsChanged(state: ParamsState): void {
  if (state.url !== null) {
    const text = serializeForm(state.list);
    urlSet(state.url, 'search', text === '' ? '' : '?' + text, true);
  }
}

function isIterable(value: object): value is Iterable<unknown> {
  return typeof (value as { [Symbol.iterator]?: unknown })[Symbol.iterator] === 'function';
}

class URLSearchParams {
  constructor(init?: unknown) {
    const state: ParamsState = { list: [], url: null };
    paramsState.set(this, state);
    if (init === undefined || init === null) return;
    if (typeof init === 'object' && isIterable(init)) {
      for (const pair of init) {
        const items = Array.from(pair as Iterable<unknown>);
        if (items.length !== 2)
          throw new TypeErrorCtor('URLSearchParams: each pair needs a name and a value');
        state.list.push([String(items[0]), String(items[1])]);
      }
    } else if (typeof init === 'object') {
      const record = init as Record<string, unknown>;
      for (const key of objectKeys(record)) state.list.push([key, String(record[key])]);
    } else {
      state.list = parseForm(String(init));
    }
  }
  get size(): number {
    return paramsOf(this).list.length;
  }
  append(name: unknown, value: unknown): void {
    const state = paramsOf(this);
    state.list.push([String(name), String(value)]);
    paramsChanged(state);
  }
  delete(name: unknown, value?: unknown): void {
    const state = paramsOf(this);
    const key = String(name);
    state.list = state.list.filter(function (pair) {
      return !(pair[0] === key && (value === undefined || pair[1] === String(value)));
    });
    paramsChanged(state);
  }
  get(name: unknown): string | null {
    const key = String(name);
    const found = paramsOf(this).list.find(function (pair) {
      return pair[0] === key;
    });
    return found === undefined ? null : found[1];
  }
  getAll(name: unknown): string[] {
    const key = String(name);
    return paramsOf(this)
      .list.filter(function (pair) {
        return pair[0] === key;
      })
      .map(function (pair) {
        return pair[1];
      });
  }
  has(name: unknown, value?: unknown): boolean {
    const key = String(name);
    return paramsOf(this).list.some(function (pair) {
      return pair[0] === key && (value === undefined || pair[1] === String(value));
    });
  }
  set(name: unknown, value: unknown): void {
    const state = paramsOf(this);
    const key = String(name);
    const text = String(value);
    let found = false;
    state.list = state.list.filter(function (pair) {
      if (pair[0] !== key) return true;
      if (found) return false;
      found = true;
      pair[1] = text;
      return true;
    });
    if (!found) state.list.push([key, text]);
    paramsChanged(state);
  }
  sort(): void {
    const state = paramsOf(this);
    state.list = state.list
      .map(function (pair, index): [Pair, number] {
        return [pair, index];
      })
      .sort(function (a, b) {
        if (a[0][0] < b[0][0]) return -1;
        if (a[0][0] > b[0][0]) return 1;
        return a[1] - b[1];
      })
      .map(function (entry) {
        return entry[0];
      });
    paramsChanged(state);
  }
  forEach(callback: (value: string, name: string, params: URLSearchParams) => void, thisArg?: unknown): void {
    const list = paramsOf(this).list.slice();
    for (const [name, value] of list) callback.call(thisArg, value, name, this);
  }
  keys(): IterableIterator<string> {
    const items = paramsOf(this).list.map(function (pair) {
      return pair[0];
    });
    return items[Symbol.iterator]();
  }
  values(): IterableIterator<string> {
    const items = paramsOf(this).list.map(function (pair) {
      return pair[1];
    });
    return items[Symbol.iterator]();
  }
  entries(): IterableIterator<Pair> {
    const items = paramsOf(this).list.map(function (pair): Pair {
      return [pair[0], pair[1]];
    });
    return items[Symbol.iterator]();
  }
  [Symbol.iterator](): IterableIterator<Pair> {
    return this.entries();
  }
  toString(): string {
    return serializeForm(paramsOf(this).list);
  }
}
define(G, 'URLSearchParams', URLSearchParams);

interface UrlState {
  fields: UrlFields;
  params: URLSearchParams | null;
}

const urlState = new WeakMap<object, UrlState>();

function urlOf(self: object): UrlState {
  const state = urlState.get(self);
  if (state === undefined) throw new TypeErrorCtor('Illegal invocation');
  return state;
}

function parseUrlFields(input: unknown, base: unknown): UrlFields | null {
  const reply = hostReply<UrlFields>('url.parse', [
    String(input),
    base === undefined ? undefined : String(base),
  ]);
  return reply.ok ? reply.value : null;
}

type UrlField = Exclude<keyof UrlFields, 'origin'>;

function urlSet(self: object, field: UrlField, value: unknown, fromParams: boolean): void {
  const state = urlOf(self);
  const reply = hostReply<UrlFields>('url.set', [state.fields.href, field, String(value)]);
  if (!reply.ok) {
    if (field === 'href') throw new TypeErrorCtor('Invalid URL: ' + String(value));
    return;
  }
  state.fields = reply.value;
  if (state.params !== null && !fromParams) paramsOf(state.params).list = parseForm(state.fields.search);
}

/** The in-isolate URL class (its accessors are defined below, one per field). */
export class URL {
  constructor(input: unknown, base?: unknown) {
    const fields = parseUrlFields(input, base);
    if (fields === null) throw new TypeErrorCtor('Invalid URL: ' + String(input));
    urlState.set(this, { fields, params: null });
  }
  static canParse(input: unknown, base?: unknown): boolean {
    return parseUrlFields(input, base) !== null;
  }
  static parse(input: unknown, base?: unknown): URL | null {
    const fields = parseUrlFields(input, base);
    return fields === null ? null : new URL(fields.href);
  }
  get searchParams(): URLSearchParams {
    const state = urlOf(this);
    if (state.params === null) {
      state.params = new URLSearchParams(state.fields.search);
      paramsOf(state.params).url = this;
    }
    return state.params;
  }
  get origin(): string {
    return urlOf(this).fields.origin;
  }
  /** The serialized URL (an accessor defined below; declared for the type checker). */
  declare href: string;
  toString(): string {
    return urlOf(this).fields.href;
  }
  toJSON(): string {
    return urlOf(this).fields.href;
  }
}
const URL_FIELDS: UrlField[] = [
  'href',
  'protocol',
  'username',
  'password',
  'host',
  'hostname',
  'port',
  'pathname',
  'search',
  'hash',
];
URL_FIELDS.forEach(function (field) {
  defineProperty(URL.prototype, field, {
    configurable: true,
    enumerable: true,
    get: function (this: URL) {
      return urlOf(this).fields[field];
    },
    set: function (this: URL, value: unknown) {
      urlSet(this, field, value, false);
    },
  });
});
define(G, 'URL', URL);

export { URLSearchParams };
