/**
 * The bridge to the host, evaluated first: it captures the host callbacks placed on the global object, removes
 * them from it, and wraps them as callSync / callAsync / settle. It also captures the intrinsics the other shims
 * use, before tool code can replace them. Helper failures become Errors with `.code` and `.reason`, remembered in
 * a WeakSet so that tool code cannot forge one.
 */
import type { HelperErrorData } from '../../runtime/host-ops.ts';
import type { HostReply, RunConfig } from './types.ts';

interface SyncCallback {
  applySyncPromise: unknown;
}

/** The host callbacks and per-call values the host places on the global object. */
interface HostGlobals {
  __pcSync?: SyncCallback;
  __pcAsync?: (id: number, op: string, args: unknown[]) => void;
  __pcLog?: (level: string, line: string, cut: boolean) => void;
  __pcDone?: (kind: string, payload: unknown) => void;
  __pcCfg?: RunConfig;
  __pcRun?: unknown;
  WebAssembly?: unknown;
}

/** The isolate's global object, with the host's hand-over slots. */
export const G = globalThis as typeof globalThis & HostGlobals;

function taken<T>(value: T | undefined, name: string): T {
  if (value === undefined) throw new Error(`the host did not provide ${name}`);
  return value;
}

const hostSync = taken(G.__pcSync, '__pcSync');
const hostSyncApply = hostSync.applySyncPromise;
// Null prototypes: tool code cannot add transfer options (such as reference) through Object.prototype.
// The host answers with a copy handle, so the reply arrives as plain data.
const SYNC_OPTIONS = Object.freeze({
  __proto__: null,
  arguments: Object.freeze({ __proto__: null, copy: true }),
});
const hostAsync = taken(G.__pcAsync, '__pcAsync');
/** Hands one console line to the host. */
export const hostLog = taken(G.__pcLog, '__pcLog');
/** Reports the call's outcome to the host. */
export const hostDone = taken(G.__pcDone, '__pcDone');
delete G.__pcSync;
delete G.__pcAsync;
delete G.__pcLog;
delete G.__pcDone;
delete G.WebAssembly;

/** Intrinsics captured at bootstrap, before tool code runs. */
export const defineProperty = Object.defineProperty;
/** Captured Reflect.apply. */
export const reflectApply = Reflect.apply;
/** Captured Object.keys. */
export const objectKeys = Object.keys;
/** Captured JSON.stringify. */
export const jsonStringify = JSON.stringify;
/** Captured JSON.parse. */
export const jsonParse = JSON.parse;
/** Captured Promise constructor. */
export const PromiseCtor = Promise;
/** Captured Promise.prototype.then. */
export const promiseThen = Promise.prototype.then;
/** Captured Error constructor. */
export const ErrorCtor = Error;
/** Captured TypeError constructor. */
export const TypeErrorCtor = TypeError;
/** Captured RangeError constructor. */
export const RangeErrorCtor = RangeError;
/** Captured Uint8Array constructor. */
export const Uint8ArrayCtor = Uint8Array;
/** Captured ArrayBuffer constructor. */
export const ArrayBufferCtor = ArrayBuffer;
/** Captured ArrayBuffer.isView. */
export const isView = ArrayBuffer.isView;
/** Captured String.fromCharCode. */
export const fromCharCode = String.fromCharCode;
/** Errors made by helpers; tool code cannot add to it. */
export const helperErrors = new WeakSet<object>();

/** The error type helpers throw: an Error with a code and maybe a reason. */
export type HelperError = Error & { code: string; reason?: string };

/** Defines a writable, configurable, non-enumerable property. */
export function define(target: object, name: PropertyKey, value: unknown): void {
  defineProperty(target, name, { value, writable: true, configurable: true, enumerable: false });
}

function helperError(data: Partial<HelperErrorData> | null | undefined): HelperError {
  const error = new ErrorCtor(String(data?.message)) as HelperError;
  error.name = 'HelperError';
  error.code = data?.code !== undefined ? String(data.code) : 'HELPER_RUNTIME';
  if (data?.reason !== undefined) error.reason = String(data.reason);
  helperErrors.add(error);
  return error;
}

/** A helper error made inside the isolate. */
export function fail(code: string, reason: string, message: string): HelperError {
  return helperError({ code, reason, message });
}

/** The host's reply to a synchronous helper: { ok, value } or { ok: false, error }. */
export function hostReply<T>(op: string, args: unknown[]): HostReply<T> {
  return reflectApply(hostSyncApply as (...a: unknown[]) => unknown, hostSync, [
    undefined,
    [op, args],
    SYNC_OPTIONS,
  ]) as HostReply<T>;
}

/** Runs a synchronous host operation; its failure is thrown as a HelperError. */
export function callSync<T>(op: string, args: unknown[]): T {
  const reply = hostReply<T>(op, args);
  if (reply.ok) return reply.value;
  throw helperError(reply.error);
}

interface Pending {
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

const pending = new Map<number, Pending>();
let nextId = 1;

/** Starts an asynchronous host operation; `settle` resolves it. */
export function callAsync<T>(op: string, args: unknown[]): Promise<T> {
  return new PromiseCtor<T>(function (resolve, reject) {
    const id = nextId++;
    pending.set(id, { resolve: resolve as (value: unknown) => void, reject });
    hostAsync(id, op, args);
  });
}

/** The function the host calls to finish an asynchronous operation. */
export function settle(id: number, ok: boolean, payload: unknown): void {
  const entry = pending.get(id);
  if (entry === undefined) return;
  pending.delete(id);
  if (ok) entry.resolve(payload);
  else entry.reject(helperError(payload as HelperErrorData));
}

/** A compact copy of any BufferSource; a view would otherwise carry its whole backing buffer across. */
export function toBytes(data: unknown, what: string): Uint8Array {
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

function queueMicrotaskImpl(callback: unknown): void {
  if (typeof callback !== 'function') throw new TypeErrorCtor('queueMicrotask: callback must be a function');
  promiseThen.call(PromiseCtor.resolve(), function () {
    (callback as () => void)();
  });
}
define(G, 'queueMicrotask', queueMicrotaskImpl);
