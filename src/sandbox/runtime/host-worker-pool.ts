/**
 * A small pool of worker threads for the synchronous host operations (safety.fs, safety.parser): they never
 * run on the gateway's main thread (docs/security.md, sandbox). Each operation
 * has a deadline (the call's remaining wall-clock budget); a worker that overruns it, runs out of its memory
 * limit or outlives its call is terminated and replaced at once. The queue is bounded.
 */
import { Worker } from 'node:worker_threads';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { PortcullisError } from '../../errors/index.ts';
import type { ErrorCode } from '../../errors/index.ts';
import { toHelperError } from './host-ops.ts';
import type { HostOpEnv, SyncReply } from './host-ops.ts';
import type { HostJobMessage } from './host-worker.ts';

/** Worker threads in the pool, started lazily. */
export const HOST_WORKERS = 2;
/** Operations that may wait for a worker; more are refused at once. */
export const MAX_QUEUED_HOST_OPERATIONS = 256;
/** Heap limits of one worker, in MiB (old and young generation), and its stack. */
export const HOST_WORKER_HEAP_MB = 512;
export const HOST_WORKER_YOUNG_HEAP_MB = 48;
export const HOST_WORKER_STACK_MB = 4;

/** Counters of the pool, for tests and operators. */
export interface HostPoolStats {
  started: number;
  terminated: number;
  running: number;
  queued: number;
}

/** One operation and when it must be done. */
export interface HostJob {
  op: string;
  args: unknown;
  env: HostOpEnv;
  /** Absolute deadline in `performance.now()` milliseconds. */
  deadline: number;
  signal: AbortSignal;
}

interface Pending extends HostJob {
  id: number;
  resolve(reply: SyncReply): void;
}

interface Slot {
  worker: Worker | null;
  job: Pending | null;
  timer: ReturnType<typeof setTimeout> | null;
  onAbort: (() => void) | null;
}

function failure(code: ErrorCode, reason: string, message: string): SyncReply {
  return { ok: false, error: toHelperError(new PortcullisError(code, message, { reason })) };
}

const label = (op: string): string => `safety.${op}`;

// In the source tree (tsx, vitest) the worker entry is TypeScript and needs the tsx loader in its thread; in
// the build it is plain JavaScript next to this file.
function startWorker(): Worker {
  const typescript = import.meta.url.endsWith('.ts');
  const entry = new URL(`./host-worker.${typescript ? 'ts' : 'js'}`, import.meta.url);
  const options = {
    execArgv: [],
    resourceLimits: {
      maxOldGenerationSizeMb: HOST_WORKER_HEAP_MB,
      maxYoungGenerationSizeMb: HOST_WORKER_YOUNG_HEAP_MB,
      stackSizeMb: HOST_WORKER_STACK_MB,
    },
  };
  if (!typescript) return new Worker(entry, options);
  const tsxRoot = path.dirname(createRequire(import.meta.url).resolve('tsx/package.json'));
  const loader = pathToFileURL(path.join(tsxRoot, 'dist/esm/api/index.mjs')).href;
  const source = `import(${JSON.stringify(loader)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(entry.href)}); });`;
  return new Worker(source, { ...options, eval: true });
}

/** The pool; one per runner. */
export class HostWorkerPool {
  private readonly slots: Slot[] = Array.from({ length: HOST_WORKERS }, () => ({
    worker: null,
    job: null,
    timer: null,
    onAbort: null,
  }));
  private readonly queue: Pending[] = [];
  private nextId = 1;
  private started = 0;
  private terminated = 0;
  private closed = false;

  /** Runs one operation in a worker; resolves with its reply or a limit failure, never rejects. */
  run(job: HostJob): Promise<SyncReply> {
    if (this.closed)
      return Promise.resolve(failure('SANDBOX_ERROR', 'runner-closed', 'the tool runner is closed'));
    if (job.signal.aborted) return Promise.resolve(failure('HELPER_RUNTIME', 'aborted', 'the call ended'));
    if (this.queue.length >= MAX_QUEUED_HOST_OPERATIONS) {
      return Promise.resolve(
        failure(
          'SANDBOX_LIMIT',
          'host-busy',
          `${label(job.op)}: too many helper operations are waiting; try again`,
        ),
      );
    }
    return new Promise<SyncReply>((resolve) => {
      const pending: Pending = { ...job, id: this.nextId++, resolve };
      const leave = (): void => {
        const index = this.queue.indexOf(pending);
        if (index < 0) return;
        this.queue.splice(index, 1);
        resolve(failure('HELPER_RUNTIME', 'aborted', 'the call ended'));
      };
      job.signal.addEventListener('abort', leave, { once: true });
      pending.resolve = (reply) => {
        job.signal.removeEventListener('abort', leave);
        resolve(reply);
      };
      this.queue.push(pending);
      this.pump();
    });
  }

  private pump(): void {
    for (const slot of this.slots) {
      if (slot.job !== null) continue;
      const job = this.queue.shift();
      if (job === undefined) return;
      this.start(slot, job);
    }
  }

  private workerOf(slot: Slot): Worker {
    if (slot.worker !== null) return slot.worker;
    const worker = startWorker();
    this.started += 1;
    worker.on('message', (message: { id: number; reply: SyncReply }) => {
      if (slot.worker !== worker || slot.job?.id !== message.id) return;
      this.finish(slot, message.reply);
    });
    worker.on('error', (error: Error & { code?: string }) => {
      if (slot.worker !== worker) return;
      const memory = error.code === 'ERR_WORKER_OUT_OF_MEMORY';
      this.discard(slot);
      if (slot.job !== null) {
        this.finish(
          slot,
          memory
            ? failure(
                'SANDBOX_LIMIT',
                'host-memory',
                `${label(slot.job.op)}: the operation ran out of memory`,
              )
            : failure('HELPER_RUNTIME', 'internal', `${label(slot.job.op)}: the operation failed`),
        );
      }
    });
    worker.on('exit', () => {
      if (slot.worker !== worker) return;
      slot.worker = null;
      if (slot.job !== null)
        this.finish(slot, failure('HELPER_RUNTIME', 'internal', 'the helper thread stopped'));
    });
    worker.unref();
    slot.worker = worker;
    return worker;
  }

  private start(slot: Slot, job: Pending): void {
    slot.job = job;
    const remaining = job.deadline - performance.now();
    if (remaining <= 0) {
      this.finish(
        slot,
        failure('SANDBOX_LIMIT', 'wall-clock', `${label(job.op)}: no time is left in the call`),
      );
      return;
    }
    let worker: Worker;
    try {
      worker = this.workerOf(slot);
      const message: HostJobMessage = { id: job.id, op: job.op, args: job.args, env: job.env };
      worker.postMessage(message);
    } catch (error) {
      this.discard(slot);
      this.finish(
        slot,
        failure('HELPER_RUNTIME', 'internal', `${label(job.op)}: ${toHelperError(error).message}`),
      );
      return;
    }
    // An overrun or an ended call stops the worker itself: the operation cannot be interrupted otherwise.
    slot.timer = setTimeout(() => {
      this.discard(slot);
      this.finish(
        slot,
        failure('SANDBOX_LIMIT', 'wall-clock', `${label(job.op)}: exceeded the call's remaining time`),
      );
    }, remaining);
    slot.onAbort = () => {
      this.discard(slot);
      this.finish(slot, failure('HELPER_RUNTIME', 'aborted', 'the call ended'));
    };
    job.signal.addEventListener('abort', slot.onAbort, { once: true });
  }

  private finish(slot: Slot, reply: SyncReply): void {
    const job = slot.job;
    if (job === null) return;
    if (slot.timer !== null) clearTimeout(slot.timer);
    if (slot.onAbort !== null) job.signal.removeEventListener('abort', slot.onAbort);
    slot.job = null;
    slot.timer = null;
    slot.onAbort = null;
    job.resolve(reply);
    this.pump();
  }

  private discard(slot: Slot): void {
    const worker = slot.worker;
    if (worker === null) return;
    slot.worker = null;
    this.terminated += 1;
    void worker.terminate().catch(() => undefined);
    // The replacement starts now, so that the next operation does not pay for a thread start.
    setImmediate(() => {
      if (!this.closed && slot.worker === null) {
        try {
          this.workerOf(slot);
        } catch {
          // Started again on the next operation, which reports the failure.
        }
      }
    });
  }

  /** Starts the first worker ahead of need, so that a call's first helper does not pay for its start. */
  warm(): void {
    const slot = this.slots[0];
    if (this.closed || slot === undefined || slot.worker !== null) return;
    try {
      this.workerOf(slot);
    } catch {
      // Started again on the first operation, which reports the failure.
    }
  }

  /** Counters: workers started and terminated, operations running and waiting. */
  stats(): HostPoolStats {
    return {
      started: this.started,
      terminated: this.terminated,
      running: this.slots.filter((slot) => slot.job !== null).length,
      queued: this.queue.length,
    };
  }

  /** Fails waiting and running operations and stops every worker. */
  async close(): Promise<void> {
    this.closed = true;
    for (const job of this.queue.splice(0))
      job.resolve(failure('SANDBOX_ERROR', 'runner-closed', 'the tool runner is closed'));
    const stopping: Array<Promise<number>> = [];
    for (const slot of this.slots) {
      const worker = slot.worker;
      slot.worker = null;
      this.finish(slot, failure('SANDBOX_ERROR', 'runner-closed', 'the tool runner is closed'));
      if (worker !== null) stopping.push(worker.terminate());
    }
    await Promise.allSettled(stopping);
  }
}
