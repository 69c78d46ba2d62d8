/**
 * The entry of a host-operation worker thread (see host-worker-pool.ts): runs one synchronous helper
 * operation per message and posts its reply. Nothing here keeps state between operations.
 */
import { parentPort } from 'node:worker_threads';
import { runSyncOperation } from './host-ops.ts';
import type { HostOpEnv } from './host-ops.ts';

/** One operation sent to a worker. */
export interface HostJobMessage {
  id: number;
  op: string;
  args: unknown;
  env: HostOpEnv;
}

parentPort?.on('message', (message: HostJobMessage) => {
  parentPort?.postMessage({ id: message.id, reply: runSyncOperation(message.env, message.op, message.args) });
});
