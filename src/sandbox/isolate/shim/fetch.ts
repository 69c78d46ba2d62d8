/**
 * fetch (installed by run.ts only when the network mode is not `blocked`), Headers and the reference response
 * object. The body arrives buffered, so text(), json() and arrayBuffer() return their value directly (the
 * synchronous contract catalog tools rely on; `await` on them works too).
 */
import {
  ArrayBufferCtor,
  G,
  PromiseCtor,
  TypeErrorCtor,
  callAsync,
  define,
  isView,
  jsonParse,
  objectKeys,
  promiseThen,
  toBytes,
} from './bridge.ts';
import { utf8Decode } from './encoding.ts';
import type { RawResponse } from './types.ts';
import { URL, URLSearchParams } from './url.ts';

type Pair = [string, string];

const headersState = new WeakMap<object, Pair[]>();

function headersOf(self: object): Pair[] {
  const list = headersState.get(self);
  if (list === undefined) throw new TypeErrorCtor('Illegal invocation');
  return list;
}

class Headers {
  constructor(init?: unknown) {
    const list: Pair[] = [];
    headersState.set(this, list);
    if (init === undefined || init === null) return;
    if (init instanceof Headers) {
      headersOf(init).forEach(function (pair) {
        list.push([pair[0], pair[1]]);
      });
    } else if (
      typeof init === 'object' &&
      typeof (init as { [Symbol.iterator]?: unknown })[Symbol.iterator] === 'function'
    ) {
      for (const pair of init as Iterable<unknown>) {
        const items = Array.from(pair as Iterable<unknown>);
        if (items.length !== 2) throw new TypeErrorCtor('Headers: each pair needs a name and a value');
        this.append(items[0], items[1]);
      }
    } else if (typeof init === 'object') {
      const record = init as Record<string, unknown>;
      for (const key of objectKeys(record)) {
        if (record[key] !== undefined && record[key] !== null) this.append(key, record[key]);
      }
    }
  }
  append(name: unknown, value: unknown): void {
    const key = String(name).toLowerCase();
    const list = headersOf(this);
    const found = list.find(function (pair) {
      return pair[0] === key;
    });
    if (found === undefined) list.push([key, String(value)]);
    else found[1] = found[1] + ', ' + String(value);
  }
  set(name: unknown, value: unknown): void {
    this.delete(name);
    this.append(name, value);
  }
  delete(name: unknown): void {
    const key = String(name).toLowerCase();
    const list = headersOf(this);
    for (let i = list.length - 1; i >= 0; i--) if ((list[i] as Pair)[0] === key) list.splice(i, 1);
  }
  get(name: unknown): string | null {
    const key = String(name).toLowerCase();
    const found = headersOf(this).find(function (pair) {
      return pair[0] === key;
    });
    return found === undefined ? null : found[1];
  }
  has(name: unknown): boolean {
    return this.get(name) !== null;
  }
  forEach(callback: (value: string, name: string, headers: Headers) => void, thisArg?: unknown): void {
    const list = headersOf(this).slice();
    for (const [name, value] of list) callback.call(thisArg, value, name, this);
  }
  entries(): IterableIterator<Pair> {
    const items = headersOf(this).map(function (pair): Pair {
      return [pair[0], pair[1]];
    });
    return items[Symbol.iterator]();
  }
  keys(): IterableIterator<string> {
    const items = headersOf(this).map(function (pair) {
      return pair[0];
    });
    return items[Symbol.iterator]();
  }
  values(): IterableIterator<string> {
    const items = headersOf(this).map(function (pair) {
      return pair[1];
    });
    return items[Symbol.iterator]();
  }
  [Symbol.iterator](): IterableIterator<Pair> {
    return this.entries();
  }
}
define(G, 'Headers', Headers);

function makeResponse(raw: RawResponse): object {
  const body = raw.body;
  let text: string | null = null;
  const readText = function (): string {
    if (text === null) text = utf8Decode(body, false, false);
    return text;
  };
  const response = {
    status: raw.status,
    ok: raw.status >= 200 && raw.status < 300,
    statusText: raw.statusText,
    url: raw.url,
    redirected: raw.redirected,
    truncated: raw.truncated,
    nextStartIndex: raw.nextStartIndex,
    contentType: raw.contentType,
    headers: new Headers(raw.headers),
    bodyUsed: false,
  };
  define(response, 'text', readText);
  define(response, 'json', function () {
    return jsonParse(readText());
  });
  define(response, 'arrayBuffer', function () {
    return body.buffer.slice(body.byteOffset, body.byteOffset + body.byteLength);
  });
  define(response, 'bytes', function () {
    return body.slice();
  });
  define(response, 'clone', function () {
    return makeResponse(raw);
  });
  return response;
}

interface FetchInit {
  headers?: unknown;
  body?: unknown;
  method?: unknown;
  maxLength?: unknown;
  startIndex?: unknown;
}

function requestUrl(input: unknown): string {
  if (typeof input === 'string') return input;
  if (input instanceof URL) return input.href;
  if (input !== null && typeof input === 'object' && typeof (input as { url?: unknown }).url === 'string') {
    return (input as { url: string }).url;
  }
  return String(input);
}

function optionalNumber(value: unknown): number | undefined {
  return value === undefined || value === null ? undefined : Number(value);
}

/** The in-isolate fetch: the request crosses as plain data and the egress guard decides on the host. */
export function fetchImpl(input: unknown, init?: FetchInit | null): Promise<object> {
  return new PromiseCtor<object>(function (resolve) {
    const url = requestUrl(input);
    const options: FetchInit = init === undefined || init === null ? {} : init;
    const headers = new Headers(options.headers);
    let body = options.body;
    if (body === undefined || body === null) {
      body = null;
    } else if (typeof body === 'string') {
      if (!headers.has('content-type')) headers.set('content-type', 'text/plain;charset=UTF-8');
    } else if (body instanceof URLSearchParams) {
      body = body.toString();
      if (!headers.has('content-type')) {
        headers.set('content-type', 'application/x-www-form-urlencoded;charset=UTF-8');
      }
    } else if (body instanceof ArrayBufferCtor || isView(body)) {
      body = toBytes(body, 'fetch');
    } else {
      body = String(body);
    }
    const request = {
      url,
      method: options.method === undefined ? 'GET' : String(options.method),
      headers: headersOf(headers).map(function (pair): Pair {
        return [pair[0], pair[1]];
      }),
      body,
      maxLength: optionalNumber(options.maxLength),
      startIndex: optionalNumber(options.startIndex),
    };
    resolve(
      promiseThen.call(callAsync<RawResponse>('fetch', [request]), function (raw) {
        return makeResponse(raw as RawResponse);
      }) as Promise<object>,
    );
  });
}
