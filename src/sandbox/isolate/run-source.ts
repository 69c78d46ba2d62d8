/**
 * In-isolate JavaScript, part 8: console capture and the call entry point. The wrapped tool code calls
 * `__pcRun` once: it takes the configuration the host put on the global object, installs the policy-dependent
 * globals (fetch only when networking is allowed, safety.fs only with file access), binds the arguments as
 * globals, runs the tool body and reports the outcome. The result is serialized HERE, so getters, toJSON and
 * `then` never run in the host.
 */
export const RUN_SOURCE = String.raw`
let consoleCount = 0;

function describe(value) {
  if (typeof value === 'string') return value;
  if (value === undefined) return 'undefined';
  if (typeof value === 'function') return '[Function ' + (value.name || 'anonymous') + ']';
  if (typeof value === 'bigint') return String(value) + 'n';
  if (typeof value === 'symbol') return value.toString();
  if (value instanceof ErrorCtor) return String(value.name) + ': ' + String(value.message);
  if (value !== null && typeof value === 'object') {
    try {
      const json = jsonStringify(value);
      if (json !== undefined) return json;
    } catch (error) {
      // Cycles and BigInts fall through to the tag.
    }
    return Object.prototype.toString.call(value);
  }
  return String(value);
}

const consoleObject = {};
['log', 'info', 'warn', 'error', 'debug', 'trace'].forEach(function (level) {
  define(consoleObject, level, function () {
    if (cfg === null || consoleCount >= cfg.maxConsoleEntries) return;
    consoleCount++;
    let line;
    try {
      const parts = [];
      for (let i = 0; i < arguments.length; i++) parts.push(describe(arguments[i]));
      line = parts.join(' ');
    } catch (error) {
      line = '[unprintable]';
    }
    const cut = line.length > cfg.consoleChars;
    hostLog(level, cut ? line.slice(0, cfg.consoleChars) : line, cut);
  });
});
define(G, 'console', consoleObject);

function finishError(error, prefix) {
  let name = 'Error';
  let message = '';
  let code;
  let reason;
  let helper = false;
  try {
    if (error !== null && (typeof error === 'object' || typeof error === 'function')) {
      helper = helperErrors.has(error);
      name = error.name === undefined ? 'Error' : String(error.name);
      message = error.message === undefined ? String(error) : String(error.message);
      if (helper) {
        code = String(error.code);
        reason = error.reason === undefined ? undefined : String(error.reason);
      }
    } else {
      message = String(error);
    }
  } catch (failure) {
    message = '[unprintable error]';
  }
  message = prefix + message;
  const cut = message.length > cfg.errorChars;
  hostDone('error', {
    name: name.slice(0, 200),
    message: cut ? message.slice(0, cfg.errorChars) : message,
    cut: cut,
    helper: helper,
    code: code,
    reason: reason,
  });
}

function finishOk(value) {
  let json;
  try {
    json = jsonStringify(value);
  } catch (error) {
    finishError(error, 'the result is not JSON-serializable: ');
    return;
  }
  if (json === undefined) json = 'null';
  if (json.length > cfg.maxResultBytes) {
    hostDone('limit', json.length);
    return;
  }
  hostDone('ok', json);
}

define(G, '__pcRun', function (body) {
  delete G.__pcRun;
  cfg = G.__pcCfg;
  delete G.__pcCfg;
  const safety = {};
  define(safety, 'parser', parserObject);
  if (cfg.fs !== null) define(safety, 'fs', makeFs(cfg.fs));
  const secretCrypto = {};
  define(secretCrypto, 'hmac', function (key, data, options) {
    const opts = options === undefined || options === null ? {} : options;
    return callSync('secret.hmac', [key, data, opts.algorithm, opts.encoding]);
  });
  define(safety, 'crypto', secretCrypto);
  const secretHttp = {};
  define(secretHttp, 'basicAuth', function (user, password) {
    return callSync('secret.basicAuth', [user, password]);
  });
  define(safety, 'http', secretHttp);
  define(G, 'safety', safety);
  if (cfg.network) define(G, 'fetch', fetchImpl);
  const values = jsonParse(cfg.args.json);
  for (let i = 0; i < cfg.args.names.length; i++) {
    const name = cfg.args.names[i];
    defineProperty(G, name, {
      value: Object.prototype.hasOwnProperty.call(values, name) ? values[name] : undefined,
      writable: true,
      enumerable: true,
      configurable: true,
    });
  }
  let result;
  try {
    result = body();
  } catch (error) {
    finishError(error, '');
    return;
  }
  promiseThen.call(result, finishOk, function (error) {
    finishError(error, '');
  });
});
`;
