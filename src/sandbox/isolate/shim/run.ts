/**
 * Console capture and the call entry point. The wrapped tool code calls `__pcRun` once: it takes the
 * configuration the host put on the global object, installs the policy-dependent globals (fetch only when
 * networking is allowed, safety.fs only with file access), binds the arguments as globals, runs the tool body
 * and reports the outcome. The result is serialized HERE, so getters, toJSON and `then` never run in the host.
 */
import {
  ErrorCtor,
  G,
  define,
  defineProperty,
  helperErrors,
  hostDone,
  hostLog,
  jsonParse,
  jsonStringify,
  promiseThen,
} from './bridge.ts';
import { fetchImpl } from './fetch.ts';
import { makeFs } from './fs.ts';
import { parserObject } from './parser.ts';
import { secretCrypto, secretHttp } from './secrets.ts';
import type { RunConfig } from './types.ts';

let cfg: RunConfig | null = null;
let consoleCount = 0;

/** How a console argument is printed: strings as they are, objects as JSON when they can be. */
export function describe(value: unknown): string {
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
    } catch {
      // Cycles and BigInts fall through to the tag.
    }
    return Object.prototype.toString.call(value);
  }
  return String(value);
}

const consoleObject = {};
['log', 'info', 'warn', 'error', 'debug', 'trace'].forEach(function (level) {
  define(consoleObject, level, function (...values: unknown[]) {
    if (cfg === null || consoleCount >= cfg.maxConsoleEntries) return;
    consoleCount++;
    let line: string;
    try {
      line = values.map(describe).join(' ');
    } catch {
      // A value whose conversion throws (a hostile Symbol.toPrimitive) still leaves a line.
      line = '[unprintable]';
    }
    const cut = line.length > cfg.consoleChars;
    hostLog(level, cut ? line.slice(0, cfg.consoleChars) : line, cut);
  });
});
define(G, 'console', consoleObject);

function finishError(config: RunConfig, error: unknown, prefix: string): void {
  let name = 'Error';
  let message: string;
  let code: string | undefined;
  let reason: string | undefined;
  let helper = false;
  try {
    if (error !== null && (typeof error === 'object' || typeof error === 'function')) {
      const fields = error as { name?: unknown; message?: unknown; code?: unknown; reason?: unknown };
      helper = helperErrors.has(error);
      name = fields.name === undefined ? 'Error' : String(fields.name);
      message = fields.message === undefined ? String(error) : String(fields.message);
      if (helper) {
        code = String(fields.code);
        reason = fields.reason === undefined ? undefined : String(fields.reason);
      }
    } else {
      message = String(error);
    }
  } catch {
    // The thrown value's getters or conversions threw: report that instead of losing the outcome.
    message = '[unprintable error]';
  }
  message = prefix + message;
  const cut = message.length > config.errorChars;
  hostDone('error', {
    name: name.slice(0, 200),
    message: cut ? message.slice(0, config.errorChars) : message,
    cut,
    helper,
    code,
    reason,
  });
}

function finishOk(config: RunConfig, value: unknown): void {
  let json: string | undefined;
  try {
    json = jsonStringify(value);
  } catch (error) {
    finishError(config, error, 'the result is not JSON-serializable: ');
    return;
  }
  if (json === undefined) json = 'null';
  if (json.length > config.maxResultBytes) {
    hostDone('limit', json.length);
    return;
  }
  hostDone('ok', json);
}

define(G, '__pcRun', function (body: () => Promise<unknown>) {
  delete G.__pcRun;
  const config = G.__pcCfg as RunConfig;
  cfg = config;
  delete G.__pcCfg;
  const safety = {};
  define(safety, 'parser', parserObject);
  if (config.fs !== null) define(safety, 'fs', makeFs(config.fs));
  define(safety, 'crypto', secretCrypto);
  define(safety, 'http', secretHttp);
  define(G, 'safety', safety);
  if (config.network) define(G, 'fetch', fetchImpl);
  const values = jsonParse(config.args.json) as Record<string, unknown>;
  for (const name of config.args.names) {
    defineProperty(G, name, {
      value: Object.prototype.hasOwnProperty.call(values, name) ? values[name] : undefined,
      writable: true,
      enumerable: true,
      configurable: true,
    });
  }
  let result: Promise<unknown>;
  try {
    result = body();
  } catch (error) {
    finishError(config, error, '');
    return;
  }
  promiseThen.call(
    result,
    function (value) {
      finishOk(config, value);
    },
    function (error) {
      finishError(config, error, '');
    },
  );
});
