/**
 * In-isolate JavaScript, part 3: URL (parsed by the host's WHATWG parser through a callback that returns plain
 * fields) and URLSearchParams (application/x-www-form-urlencoded, pure JavaScript), kept in sync both ways.
 */
export const URL_SOURCE = String.raw`
function formDecode(text) {
  const bytes = [];
  const source = utf8Encode(text.replace(/\+/g, ' '));
  for (let i = 0; i < source.length; i++) {
    const b = source[i];
    if (b === 0x25 && i + 2 < source.length) {
      const hex = fromCharCode(source[i + 1], source[i + 2]);
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

function formEncode(text) {
  const bytes = utf8Encode(text);
  let out = '';
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i];
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

function parseForm(text) {
  const list = [];
  const body = text.charAt(0) === '?' ? text.slice(1) : text;
  if (body === '') return list;
  const parts = body.split('&');
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i];
    if (part === '') continue;
    const eq = part.indexOf('=');
    const name = eq < 0 ? part : part.slice(0, eq);
    const value = eq < 0 ? '' : part.slice(eq + 1);
    list.push([formDecode(name), formDecode(value)]);
  }
  return list;
}

const paramsState = new WeakMap();

function paramsOf(self) {
  const state = paramsState.get(self);
  if (state === undefined) throw new TypeErrorCtor('Illegal invocation');
  return state;
}

function paramsChanged(state) {
  if (state.url !== null) {
    const text = serializeForm(state.list);
    urlSet(state.url, 'search', text === '' ? '' : '?' + text, true);
  }
}

function serializeForm(list) {
  let out = '';
  for (let i = 0; i < list.length; i++) {
    if (i > 0) out += '&';
    out += formEncode(list[i][0]) + '=' + formEncode(list[i][1]);
  }
  return out;
}

class URLSearchParams {
  constructor(init) {
    const state = { list: [], url: null };
    paramsState.set(this, state);
    if (init === undefined || init === null) return;
    if (typeof init === 'object' && typeof init[Symbol.iterator] === 'function') {
      for (const pair of init) {
        const items = Array.from(pair);
        if (items.length !== 2) throw new TypeErrorCtor('URLSearchParams: each pair needs a name and a value');
        state.list.push([String(items[0]), String(items[1])]);
      }
    } else if (typeof init === 'object') {
      const keys = objectKeys(init);
      for (let i = 0; i < keys.length; i++) state.list.push([keys[i], String(init[keys[i]])]);
    } else {
      state.list = parseForm(String(init));
    }
  }
  get size() {
    return paramsOf(this).list.length;
  }
  append(name, value) {
    const state = paramsOf(this);
    state.list.push([String(name), String(value)]);
    paramsChanged(state);
  }
  delete(name, value) {
    const state = paramsOf(this);
    const key = String(name);
    state.list = state.list.filter(function (pair) {
      return !(pair[0] === key && (value === undefined || pair[1] === String(value)));
    });
    paramsChanged(state);
  }
  get(name) {
    const key = String(name);
    const found = paramsOf(this).list.find(function (pair) {
      return pair[0] === key;
    });
    return found === undefined ? null : found[1];
  }
  getAll(name) {
    const key = String(name);
    return paramsOf(this)
      .list.filter(function (pair) {
        return pair[0] === key;
      })
      .map(function (pair) {
        return pair[1];
      });
  }
  has(name, value) {
    const key = String(name);
    return paramsOf(this).list.some(function (pair) {
      return pair[0] === key && (value === undefined || pair[1] === String(value));
    });
  }
  set(name, value) {
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
  sort() {
    const state = paramsOf(this);
    state.list = state.list
      .map(function (pair, index) {
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
  forEach(callback, thisArg) {
    const list = paramsOf(this).list.slice();
    for (let i = 0; i < list.length; i++) callback.call(thisArg, list[i][1], list[i][0], this);
  }
  keys() {
    return paramsOf(this)
      .list.map(function (pair) {
        return pair[0];
      })
      [Symbol.iterator]();
  }
  values() {
    return paramsOf(this)
      .list.map(function (pair) {
        return pair[1];
      })
      [Symbol.iterator]();
  }
  entries() {
    return paramsOf(this)
      .list.map(function (pair) {
        return [pair[0], pair[1]];
      })
      [Symbol.iterator]();
  }
  [Symbol.iterator]() {
    return this.entries();
  }
  toString() {
    return serializeForm(paramsOf(this).list);
  }
}
define(G, 'URLSearchParams', URLSearchParams);

const urlState = new WeakMap();

function urlOf(self) {
  const state = urlState.get(self);
  if (state === undefined) throw new TypeErrorCtor('Illegal invocation');
  return state;
}

function parseUrlFields(input, base) {
  const reply = hostReply('url.parse', [String(input), base === undefined ? undefined : String(base)]);
  return reply.ok ? reply.value : null;
}

function urlSet(self, field, value, fromParams) {
  const state = urlOf(self);
  const reply = hostReply('url.set', [state.fields.href, field, String(value)]);
  if (!reply.ok) {
    if (field === 'href') throw new TypeErrorCtor('Invalid URL: ' + String(value));
    return;
  }
  state.fields = reply.value;
  if (state.params !== null && !fromParams) paramsOf(state.params).list = parseForm(state.fields.search);
}

class URL {
  constructor(input, base) {
    const fields = parseUrlFields(input, base);
    if (fields === null) throw new TypeErrorCtor('Invalid URL: ' + String(input));
    urlState.set(this, { fields: fields, params: null });
  }
  static canParse(input, base) {
    return parseUrlFields(input, base) !== null;
  }
  static parse(input, base) {
    const fields = parseUrlFields(input, base);
    return fields === null ? null : new URL(fields.href);
  }
  get searchParams() {
    const state = urlOf(this);
    if (state.params === null) {
      state.params = new URLSearchParams(state.fields.search);
      paramsOf(state.params).url = this;
    }
    return state.params;
  }
  get origin() {
    return urlOf(this).fields.origin;
  }
  toString() {
    return urlOf(this).fields.href;
  }
  toJSON() {
    return urlOf(this).fields.href;
  }
}
['href', 'protocol', 'username', 'password', 'host', 'hostname', 'port', 'pathname', 'search', 'hash'].forEach(
  function (field) {
    defineProperty(URL.prototype, field, {
      configurable: true,
      enumerable: true,
      get: function () {
        return urlOf(this).fields[field];
      },
      set: function (value) {
        urlSet(this, field, value, false);
      },
    });
  },
);
define(G, 'URL', URL);
`;
