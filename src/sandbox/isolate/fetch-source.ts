/**
 * In-isolate JavaScript, part 5: fetch (installed only when the network mode is not `blocked`), Headers and the
 * response object of reference-rules §10. The body arrives buffered, so text(), json() and arrayBuffer() return
 * their value directly (the reference's synchronous contract; `await` on them works too).
 */
export const FETCH_SOURCE = String.raw`
const headersState = new WeakMap();

function headersOf(self) {
  const list = headersState.get(self);
  if (list === undefined) throw new TypeErrorCtor('Illegal invocation');
  return list;
}

class Headers {
  constructor(init) {
    const list = [];
    headersState.set(this, list);
    if (init === undefined || init === null) return;
    if (init instanceof Headers) {
      headersOf(init).forEach(function (pair) {
        list.push([pair[0], pair[1]]);
      });
    } else if (typeof init === 'object' && typeof init[Symbol.iterator] === 'function') {
      for (const pair of init) {
        const items = Array.from(pair);
        if (items.length !== 2) throw new TypeErrorCtor('Headers: each pair needs a name and a value');
        this.append(items[0], items[1]);
      }
    } else if (typeof init === 'object') {
      const keys = objectKeys(init);
      for (let i = 0; i < keys.length; i++) {
        if (init[keys[i]] !== undefined && init[keys[i]] !== null) this.append(keys[i], init[keys[i]]);
      }
    }
  }
  append(name, value) {
    const key = String(name).toLowerCase();
    const list = headersOf(this);
    const found = list.find(function (pair) {
      return pair[0] === key;
    });
    if (found === undefined) list.push([key, String(value)]);
    else found[1] = found[1] + ', ' + String(value);
  }
  set(name, value) {
    this.delete(name);
    this.append(name, value);
  }
  delete(name) {
    const key = String(name).toLowerCase();
    const list = headersOf(this);
    for (let i = list.length - 1; i >= 0; i--) if (list[i][0] === key) list.splice(i, 1);
  }
  get(name) {
    const key = String(name).toLowerCase();
    const found = headersOf(this).find(function (pair) {
      return pair[0] === key;
    });
    return found === undefined ? null : found[1];
  }
  has(name) {
    return this.get(name) !== null;
  }
  forEach(callback, thisArg) {
    const list = headersOf(this).slice();
    for (let i = 0; i < list.length; i++) callback.call(thisArg, list[i][1], list[i][0], this);
  }
  entries() {
    return headersOf(this)
      .map(function (pair) {
        return [pair[0], pair[1]];
      })
      [Symbol.iterator]();
  }
  keys() {
    return headersOf(this)
      .map(function (pair) {
        return pair[0];
      })
      [Symbol.iterator]();
  }
  values() {
    return headersOf(this)
      .map(function (pair) {
        return pair[1];
      })
      [Symbol.iterator]();
  }
  [Symbol.iterator]() {
    return this.entries();
  }
}
define(G, 'Headers', Headers);

function makeResponse(raw) {
  const body = raw.body;
  let text = null;
  const readText = function () {
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

function fetchImpl(input, init) {
  return new PromiseCtor(function (resolve) {
    let url;
    if (typeof input === 'string') url = input;
    else if (input instanceof URL) url = input.href;
    else if (input !== null && typeof input === 'object' && typeof input.url === 'string') url = input.url;
    else url = String(input);
    const options = init === undefined || init === null ? {} : init;
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
      url: url,
      method: options.method === undefined ? 'GET' : String(options.method),
      headers: headersOf(headers).map(function (pair) {
        return [pair[0], pair[1]];
      }),
      body: body,
      maxLength: options.maxLength === undefined || options.maxLength === null ? undefined : Number(options.maxLength),
      startIndex: options.startIndex === undefined || options.startIndex === null ? undefined : Number(options.startIndex),
    };
    resolve(
      promiseThen.call(callAsync('fetch', [request]), function (raw) {
        return makeResponse(raw);
      }),
    );
  });
}
`;
