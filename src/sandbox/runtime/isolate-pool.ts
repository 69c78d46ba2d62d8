/**
 * Isolates per tool: never shared between tools, reused across calls of one tool, at most `maxPerTool` at a
 * time (concurrent calls of one tool each get their own isolate, so CPU accounting stays per call). An isolate
 * is reused only when its call ended cleanly: the tool's script finished (no promise loop or other work left
 * running after it returned) within UNCLEAN_EXIT_GRACE_MS of the call's end, and the next context was prepared
 * within the call's remaining budget. Any other isolate is disposed at once and the next call gets a new one.
 */
import { ToolIsolate } from './tool-isolate.ts';
import type { PreparedContext } from './tool-isolate.ts';

// How long a call waits for an isolate that is still preparing before it starts another one.
const PREPARE_GRACE_MS = 25;

/** How long after a call ends its script may take to finish before the isolate counts as still running. */
export const UNCLEAN_EXIT_GRACE_MS = 250;

/** Counters of the pool, for tests and operators. */
export interface IsolatePoolStats {
  created: number;
  disposed: number;
  /** Disposed because the call left work running in the isolate after it ended. */
  disposedUnclean: number;
  /** Isolates alive now (busy, idle or preparing). */
  live: number;
}

interface Waiter {
  resolve(tool: ToolIsolate): void;
  reject(reason: unknown): void;
  timer: ReturnType<typeof setTimeout> | null;
}

interface ToolPool {
  toolId: string;
  memoryMb: number;
  idle: ToolIsolate[];
  preparing: number;
  total: number;
  waiters: Waiter[];
  evicted: boolean;
}

/** How a released isolate is treated. */
export interface ReleaseOptions {
  /** False after a breach or failure: the isolate is disposed. */
  reusable: boolean;
  /** How long preparing the next context may take before the isolate is considered stuck. */
  fenceMs: number;
  /** The context the call used; released off the caller's path. */
  context?: PreparedContext | null;
  /** Settles when the call's script has finished running in the isolate. */
  finished?: Promise<unknown>;
}

/** The isolate pools of one runner. */
export class IsolatePool {
  private readonly pools = new Map<string, ToolPool>();
  private readonly owners = new Map<ToolIsolate, ToolPool>();
  private counts = { created: 0, disposed: 0, disposedUnclean: 0 };

  constructor(
    private readonly maxPerTool: number,
    private readonly onCatastrophic: (toolId: string, message: string) => void = () => undefined,
  ) {}

  private poolFor(toolId: string, memoryMb: number): ToolPool {
    let pool = this.pools.get(toolId);
    if (pool === undefined) {
      pool = { toolId, memoryMb, idle: [], preparing: 0, total: 0, waiters: [], evicted: false };
      this.pools.set(toolId, pool);
    }
    if (pool.memoryMb !== memoryMb) {
      // A memory cap is fixed at isolate creation: isolates with the old cap are retired.
      pool.memoryMb = memoryMb;
      for (const tool of pool.idle.splice(0)) this.drop(pool, tool);
    }
    return pool;
  }

  private create(pool: ToolPool): ToolIsolate {
    const tool = new ToolIsolate(pool.memoryMb, (message) => this.onCatastrophic(pool.toolId, message));
    pool.total += 1;
    this.counts.created += 1;
    this.owners.set(tool, pool);
    return tool;
  }

  private drop(pool: ToolPool, tool: ToolIsolate): void {
    tool.takeSpare()?.release();
    tool.dispose();
    if (this.owners.delete(tool)) {
      pool.total -= 1;
      this.counts.disposed += 1;
    }
    this.serveWaiters(pool);
  }

  private serveWaiters(pool: ToolPool): void {
    while (pool.waiters.length > 0 && (pool.idle.length > 0 || pool.total < this.maxPerTool)) {
      const waiter = pool.waiters.shift() as Waiter;
      if (waiter.timer !== null) clearTimeout(waiter.timer);
      waiter.resolve(pool.idle.pop() ?? this.create(pool));
    }
  }

  /** An isolate for one call of `toolId`; waits when the tool's isolates are all busy. */
  acquire(toolId: string, memoryMb: number, signal: AbortSignal): Promise<ToolIsolate> {
    const pool = this.poolFor(toolId, memoryMb);
    const idle = pool.idle.pop();
    if (idle !== undefined) return Promise.resolve(idle);
    if (pool.total < this.maxPerTool && pool.preparing === 0) return Promise.resolve(this.create(pool));
    return new Promise<ToolIsolate>((resolve, reject) => {
      const waiter: Waiter = { resolve, reject, timer: null };
      const leave = (): void => {
        const index = pool.waiters.indexOf(waiter);
        if (index >= 0) pool.waiters.splice(index, 1);
        if (waiter.timer !== null) clearTimeout(waiter.timer);
      };
      if (pool.total < this.maxPerTool) {
        waiter.timer = setTimeout(() => {
          waiter.timer = null;
          if (pool.total >= this.maxPerTool) return;
          leave();
          resolve(this.create(pool));
        }, PREPARE_GRACE_MS);
      }
      signal.addEventListener(
        'abort',
        () => {
          leave();
          reject(signal.reason);
        },
        { once: true },
      );
      pool.waiters.push(waiter);
    });
  }

  /** Returns an isolate after a call: reused (after preparing its next context) or disposed. */
  release(tool: ToolIsolate, options: ReleaseOptions): void {
    const pool = this.owners.get(tool);
    if (pool === undefined) {
      tool.dispose();
      return;
    }
    if (
      !options.reusable ||
      pool.evicted ||
      tool.disposed ||
      tool.catastrophic !== null ||
      tool.memoryMb !== pool.memoryMb
    ) {
      options.context?.release();
      this.drop(pool, tool);
      return;
    }
    // Counted as preparing at once, so that a call arriving right now waits for this isolate instead of
    // creating another; the work itself (which may wait for the isolate's lock) runs after the caller resumes.
    pool.preparing += 1;
    setImmediate(() => this.recycle(pool, tool, options));
  }

  private recycle(pool: ToolPool, tool: ToolIsolate, options: ReleaseOptions): void {
    options.context?.release();
    if (options.finished === undefined) {
      this.prepareNext(pool, tool, options);
      return;
    }
    let timer: ReturnType<typeof setTimeout> | null = null;
    const grace = new Promise<boolean>((resolve) => {
      timer = setTimeout(() => resolve(false), UNCLEAN_EXIT_GRACE_MS);
    });
    const done = options.finished.then(
      () => true,
      () => true,
    );
    void Promise.race([done, grace]).then((clean) => {
      if (timer !== null) clearTimeout(timer);
      if (clean) {
        this.prepareNext(pool, tool, options);
        return;
      }
      // Work left running after the call (a promise loop, say) would burn a core until its budget ran out.
      pool.preparing -= 1;
      this.counts.disposedUnclean += 1;
      this.drop(pool, tool);
    });
  }

  private prepareNext(pool: ToolPool, tool: ToolIsolate, options: ReleaseOptions): void {
    const fence = setTimeout(() => tool.dispose(), Math.max(1, options.fenceMs));
    tool.prepare().then(
      (prepared) => {
        clearTimeout(fence);
        pool.preparing -= 1;
        if (pool.evicted || tool.disposed || tool.memoryMb !== pool.memoryMb) {
          prepared.release();
          this.drop(pool, tool);
          return;
        }
        tool.spare = prepared;
        const waiter = pool.waiters.shift();
        if (waiter === undefined) {
          pool.idle.push(tool);
          return;
        }
        if (waiter.timer !== null) clearTimeout(waiter.timer);
        waiter.resolve(tool);
      },
      () => {
        clearTimeout(fence);
        pool.preparing -= 1;
        this.drop(pool, tool);
      },
    );
  }

  /** Counters: isolates created, disposed (and why), alive. */
  stats(): IsolatePoolStats {
    return { ...this.counts, live: this.owners.size };
  }

  /** Disposes the idle isolates of a tool; busy ones are disposed when their call ends. */
  evict(toolId: string): void {
    const pool = this.pools.get(toolId);
    if (pool === undefined) return;
    this.pools.delete(toolId);
    pool.evicted = true;
    for (const tool of pool.idle.splice(0)) this.drop(pool, tool);
  }

  /** Disposes every isolate, busy or idle, and fails waiting calls. */
  closeAll(reason: unknown): void {
    const pools = new Set([...this.pools.values(), ...this.owners.values()]);
    this.pools.clear();
    for (const pool of pools) {
      pool.evicted = true;
      for (const waiter of pool.waiters.splice(0)) {
        if (waiter.timer !== null) clearTimeout(waiter.timer);
        waiter.reject(reason);
      }
    }
    for (const [tool, pool] of [...this.owners]) this.drop(pool, tool);
  }
}
