/**
 * One V8 isolate that belongs to exactly one tool (DESIGN.md decision 2). It compiles the shim program once,
 * caches compiled tool code by source, and prepares fresh contexts: each context gets four host callbacks
 * (copied arguments and results, never a host object) routed to whichever call currently owns the context.
 * Synchronous helpers cross as a reference the shim calls with `applySyncPromise`: the isolate's thread waits
 * for the host's promise while the gateway's main thread stays free (the work runs in a worker thread).
 */
import ivm from 'isolated-vm';
import { bootstrapSource, wrapToolCode } from '../isolate/bootstrap.ts';
import type { SyncReply } from './host-ops.ts';

/** Resolves an asynchronous helper call inside the isolate. */
export type SettleFn = (id: number, ok: boolean, payload: unknown) => void;

/** Where a context's host callbacks go while a call owns it. */
export interface IsolateBridge {
  sync(op: unknown, args: unknown): Promise<SyncReply>;
  async(id: unknown, op: unknown, args: unknown, settle: SettleFn): void;
  log(level: unknown, line: unknown, cut: unknown): void;
  done(kind: unknown, payload: unknown): void;
}

/** A fresh context with the shims installed, ready for exactly one call. */
export interface PreparedContext {
  context: ivm.Context;
  /** Routes the host callbacks to `bridge`; null detaches them (late callbacks are ignored). */
  bind(bridge: IsolateBridge | null): void;
  release(): void;
}

const NO_CALL: SyncReply = {
  ok: false,
  error: { code: 'HELPER_RUNTIME', reason: 'no-active-call', message: 'no call is active in this context' },
};

const MAX_CACHED_SCRIPTS = 16;

// V8 code cache of the shim program, shared by every isolate of the process (compiled once, then reused).
let bootstrapCache: ivm.ExternalCopy<ArrayBuffer> | undefined;

/** An isolate owned by one tool. */
export class ToolIsolate {
  readonly isolate: ivm.Isolate;
  readonly memoryMb: number;
  /** A context prepared after the previous call, so the next call skips context creation. */
  spare: PreparedContext | null = null;
  private bootstrap: Promise<ivm.Script> | null = null;
  private readonly scripts = new Map<string, Promise<ivm.Script>>();
  private disposedHere = false;
  private catastrophicMessage: string | null = null;

  /** `onCatastrophic` is told when V8 loses control of the isolate (see `catastrophic`). */
  constructor(memoryMb: number, onCatastrophic: (message: string) => void = () => undefined) {
    this.memoryMb = memoryMb;
    // Without this handler a hard V8 out-of-memory in the isolate aborts the whole process. With it, the
    // isolate's thread is parked forever and the process lives on; the isolate must never be used again.
    this.isolate = new ivm.Isolate({
      memoryLimit: memoryMb,
      onCatastrophicError: (message: string) => {
        this.catastrophicMessage = message;
        onCatastrophic(message);
      },
    });
  }

  /** Set when V8 reported a catastrophic (unrecoverable) error in this isolate. */
  get catastrophic(): string | null {
    return this.catastrophicMessage;
  }

  /** True once the isolate is gone, whoever disposed it. */
  get disposed(): boolean {
    return this.isolate.isDisposed;
  }

  /** True when the host disposed the isolate (a limit breach or eviction), false when V8 did (memory). */
  get disposedByHost(): boolean {
    return this.disposedHere;
  }

  /** Disposes the isolate; any running code is terminated. */
  dispose(): void {
    this.disposedHere = true;
    if (!this.isolate.isDisposed) {
      try {
        this.isolate.dispose();
      } catch {
        // Already disposed by V8 (memory limit); nothing left to free.
      }
    }
  }

  /** Takes the spare context, if any. */
  takeSpare(): PreparedContext | null {
    const spare = this.spare;
    this.spare = null;
    return spare;
  }

  private bootstrapScript(): Promise<ivm.Script> {
    if (this.bootstrap === null) {
      const cached = bootstrapCache;
      this.bootstrap = bootstrapSource()
        .then((source) =>
          this.isolate.compileScript(source, {
            filename: 'portcullis:sandbox-shims.js',
            ...(cached === undefined ? { produceCachedData: true } : { cachedData: cached }),
          }),
        )
        .then((script) => {
          const produced = (script as ivm.Script & ivm.CachedDataResult).cachedData;
          if (bootstrapCache === undefined && produced !== undefined) bootstrapCache = produced;
          return script;
        });
    }
    return this.bootstrap;
  }

  /** Compiles (once per source) the wrapped tool code; rejects with V8's SyntaxError. */
  compile(code: string): Promise<ivm.Script> {
    let script = this.scripts.get(code);
    if (script === undefined) {
      if (this.scripts.size >= MAX_CACHED_SCRIPTS) {
        const oldest = this.scripts.keys().next().value as string;
        this.scripts.delete(oldest);
      }
      script = this.isolate.compileScript(wrapToolCode(code), { filename: 'tool.js', lineOffset: -1 });
      script.catch(() => this.scripts.delete(code));
      this.scripts.set(code, script);
    }
    return script;
  }

  /** Creates a fresh context with the host callbacks and the shim program installed. */
  async prepare(): Promise<PreparedContext> {
    const context = await this.isolate.createContext();
    let bridge: IsolateBridge | null = null;
    let settleRef: ivm.Reference<SettleFn> | null = null;
    const settle: SettleFn = (id, ok, payload) => {
      try {
        settleRef?.applyIgnored(undefined, [id, ok, payload], { arguments: { copy: true } });
      } catch {
        // The isolate or context is gone; the result has no one left to receive it.
      }
    };
    const global = context.global;
    try {
      await Promise.all([
        global.set(
          '__pcSync',
          new ivm.Reference((op: unknown, args: unknown) =>
            (bridge ? bridge.sync(op, args) : Promise.resolve(NO_CALL)).then((reply) =>
              new ivm.ExternalCopy(reply).copyInto({ release: true }),
            ),
          ),
        ),
        global.set(
          '__pcAsync',
          new ivm.Callback((id: unknown, op: unknown, args: unknown) => bridge?.async(id, op, args, settle), {
            ignored: true,
          }),
        ),
        global.set(
          '__pcLog',
          new ivm.Callback((level: unknown, line: unknown, cut: unknown) => bridge?.log(level, line, cut), {
            ignored: true,
          }),
        ),
        global.set(
          '__pcDone',
          new ivm.Callback((kind: unknown, payload: unknown) => bridge?.done(kind, payload), {
            ignored: true,
          }),
        ),
      ]);
      const script = await this.bootstrapScript();
      settleRef = (await script.run(context, { reference: true })) as ivm.Reference<SettleFn>;
    } catch (error) {
      context.release();
      throw error;
    }
    return {
      context,
      bind: (next) => {
        bridge = next;
      },
      release: () => {
        bridge = null;
        try {
          settleRef?.release();
          context.release();
        } catch {
          // Released already, or the isolate is gone.
        }
      },
    };
  }
}
