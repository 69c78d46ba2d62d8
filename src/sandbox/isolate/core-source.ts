/**
 * In-isolate JavaScript, part 1: the bridge to the host. It captures the host callbacks placed on the global
 * object, removes them from it, and wraps them as callSync / callAsync / settle. Helper failures become Errors
 * with `.code` and `.reason`, remembered in a WeakSet so that tool code cannot forge one.
 * This text runs inside the isolate, never in the host; it must not contain template substitutions.
 */
export const CORE_SOURCE = String.raw`
const G = globalThis;
const hostSync = G.__pcSync;
const hostSyncApply = hostSync.applySyncPromise;
// Null prototypes: tool code cannot add transfer options (such as reference) through Object.prototype.
// The host answers with a copy handle, so the reply arrives as plain data.
const SYNC_OPTIONS = Object.freeze({
  __proto__: null,
  arguments: Object.freeze({ __proto__: null, copy: true }),
});
const hostAsync = G.__pcAsync;
const hostLog = G.__pcLog;
const hostDone = G.__pcDone;
delete G.__pcSync;
delete G.__pcAsync;
delete G.__pcLog;
delete G.__pcDone;
delete G.WebAssembly;

const defineProperty = Object.defineProperty;
const reflectApply = Reflect.apply;
const objectKeys = Object.keys;
const jsonStringify = JSON.stringify;
const jsonParse = JSON.parse;
const PromiseCtor = Promise;
const promiseThen = Promise.prototype.then;
const ErrorCtor = Error;
const TypeErrorCtor = TypeError;
const RangeErrorCtor = RangeError;
const Uint8ArrayCtor = Uint8Array;
const ArrayBufferCtor = ArrayBuffer;
const isView = ArrayBuffer.isView;
const fromCharCode = String.fromCharCode;
const helperErrors = new WeakSet();
let cfg = null;

function define(target, name, value) {
  defineProperty(target, name, { value: value, writable: true, configurable: true, enumerable: false });
}

function helperError(data) {
  const error = new ErrorCtor(String(data && data.message));
  error.name = 'HelperError';
  error.code = data && data.code !== undefined ? String(data.code) : 'HELPER_RUNTIME';
  if (data && data.reason !== undefined) error.reason = String(data.reason);
  helperErrors.add(error);
  return error;
}

function fail(code, reason, message) {
  return helperError({ code: code, reason: reason, message: message });
}

// The host's reply to a synchronous helper: { ok, value } or { ok: false, error }.
function hostReply(op, args) {
  return reflectApply(hostSyncApply, hostSync, [undefined, [op, args], SYNC_OPTIONS]);
}

function callSync(op, args) {
  const reply = hostReply(op, args);
  if (reply.ok) return reply.value;
  throw helperError(reply.error);
}

const pending = new Map();
let nextId = 1;

function callAsync(op, args) {
  return new PromiseCtor(function (resolve, reject) {
    const id = nextId++;
    pending.set(id, { resolve: resolve, reject: reject });
    hostAsync(id, op, args);
  });
}

function settle(id, ok, payload) {
  const entry = pending.get(id);
  if (entry === undefined) return;
  pending.delete(id);
  if (ok) entry.resolve(payload);
  else entry.reject(helperError(payload));
}

// A compact copy of any BufferSource; a view would otherwise carry its whole backing buffer across.
function toBytes(data, what) {
  if (data instanceof ArrayBufferCtor) return new Uint8ArrayCtor(data.slice(0));
  if (isView(data)) {
    const out = new Uint8ArrayCtor(data.byteLength);
    out.set(new Uint8ArrayCtor(data.buffer, data.byteOffset, data.byteLength));
    return out;
  }
  if (typeof SharedArrayBuffer === 'function' && data instanceof SharedArrayBuffer) {
    const out = new Uint8ArrayCtor(data.byteLength);
    out.set(new Uint8ArrayCtor(data));
    return out;
  }
  throw new TypeErrorCtor(what + ': expected an ArrayBuffer or a typed array');
}

function queueMicrotaskImpl(callback) {
  if (typeof callback !== 'function') throw new TypeErrorCtor('queueMicrotask: callback must be a function');
  promiseThen.call(PromiseCtor.resolve(), function () {
    callback();
  });
}
define(G, 'queueMicrotask', queueMicrotaskImpl);
`;
