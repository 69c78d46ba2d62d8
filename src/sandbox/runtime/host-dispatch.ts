/**
 * Decides where a synchronous helper operation runs: small URL and crypto operations inline (their cost is
 * bounded by their small input), everything else (safety.fs, safety.parser, large inputs) in the host worker
 * pool, so that no tool can hold the gateway's event loop for more than a moment.
 */
import { runSyncOperation } from './host-ops.ts';
import type { HostContext, SyncReply } from './host-ops.ts';
import type { HostWorkerPool } from './host-worker-pool.ts';

/** Inputs up to this size (characters or bytes, summed over the arguments) may run on the main thread. */
export const MAX_INLINE_INPUT = 64 * 1024;

const INLINE_OPERATIONS = new Set([
  'url.parse',
  'url.set',
  'crypto.digest',
  'crypto.hmac',
  'crypto.verify',
  'crypto.random',
  'crypto.uuid',
]);

function inputSize(args: unknown): number {
  if (!Array.isArray(args)) return 0;
  let size = 0;
  for (const value of args as unknown[]) {
    if (typeof value === 'string') size += value.length;
    else if (value instanceof Uint8Array) size += value.byteLength;
    else if (value !== null && typeof value === 'object') return Number.POSITIVE_INFINITY;
  }
  return size;
}

/** Runs one synchronous helper operation for a call, inline or in a worker; never rejects. */
export function runHostOperation(
  context: HostContext,
  pool: HostWorkerPool,
  op: unknown,
  args: unknown,
): Promise<SyncReply> {
  if (typeof op !== 'string' || (INLINE_OPERATIONS.has(op) && inputSize(args) <= MAX_INLINE_INPUT)) {
    return Promise.resolve(runSyncOperation(context.env, op, args));
  }
  return pool.run({ op, args, env: context.env, deadline: context.deadline, signal: context.signal });
}
