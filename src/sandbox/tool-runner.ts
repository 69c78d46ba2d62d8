/**
 * The isolated-vm implementation of ToolRunner (docs/rules/sandbox.md#r-sandbox-1-one-isolate-per-tool): one isolate per tool, a fresh context
 * per call, a memory cap, a CPU-time budget and a wall-clock deadline (a breach disposes the isolate), values
 * copied in and out as JSON, bounded and masked console capture, and helper calls as host callbacks. The
 * synchronous helpers (safety.fs, safety.parser) run in a worker-thread pool, never on the main thread.
 */
import ivm from 'isolated-vm';
import { PortcullisError, isPortcullisError } from '../errors/index.ts';
import { createEgressGuard } from './egress/egress-guard.ts';
import { createSecretVault } from './egress/secret-vault.ts';
import type { EgressGuard, EgressGuardOptions } from './egress/egress-guard.ts';
import { createFsScope } from './fs/fs-scope.ts';
import type { SafeFsLimits } from './fs/safe-fs.ts';
import { createMasker } from '../secrets/index.ts';
import type { Masker } from '../secrets/index.ts';
import type { SandboxPolicy } from './policy.ts';
import type { SandboxRunner, ToolRunRequest, ToolRunResult } from './runner.ts';
import { bindArguments } from './runtime/arguments.ts';
import { longestSecret, maskAndClip } from './runtime/clip.ts';
import { failureResult, outcomeFromReport, outcomeToResult } from './runtime/outcome.ts';
import type { Outcome } from './runtime/outcome.ts';
import { runHostOperation } from './runtime/host-dispatch.ts';
import { runAsyncOperation, toHelperError } from './runtime/host-ops.ts';
import { concealArguments, isSecretOperation, runSecretOperation } from './runtime/secret-ops.ts';
import type { FsSpec, HostContext } from './runtime/host-ops.ts';
import { HostWorkerPool } from './runtime/host-worker-pool.ts';
import { IsolatePool } from './runtime/isolate-pool.ts';
import { createQuarantineBook } from './runtime/quarantine.ts';
import type { IsolateBridge, PreparedContext, ToolIsolate } from './runtime/tool-isolate.ts';
import { normalizeLimits } from './runtime/limits.ts';

/** Options of the runner; every one has a safe default. */
export interface ToolRunnerOptions {
  /** The gateway workspace used by safety.fs when a tool has no fsBasePath; without it such tools get no files. */
  workspaceDir?: string;
  /** Extra readable roots next to the workspace (ignored when fsBasePath confines a tool). */
  readRoots?: readonly string[];
  /** The egress guard fetch goes through; built from `egressOptions` when absent. */
  egress?: EgressGuard;
  egressOptions?: EgressGuardOptions;
  /** Isolates one tool may have at once (concurrent calls of one tool); default 2. */
  maxIsolatesPerTool?: number;
  /** Longest console line kept, in characters; default 4096. */
  maxConsoleLineChars?: number;
  /** Longest error message kept, in characters; default 2000. */
  maxErrorChars?: number;
  /** Largest parser input, in characters; default 16 Mi. */
  maxParserInputChars?: number;
  fsLimits?: Partial<SafeFsLimits>;
  /**
   * Told when V8 loses control of a tool's isolate (a hard out-of-memory). The process survives, but the
   * isolate's thread and heap are lost for good (isolated-vm advises restarting the process when this keeps
   * happening). The next call gets a fresh isolate; after repeated failures the tool is quarantined
   * (`quarantined: true`) until an operator lifts it or its spec changes.
   */
  onCatastrophicError?: (event: {
    toolId: string;
    message: string;
    failures: number;
    quarantined: boolean;
  }) => void;
  /** The clock of the quarantine window, in epoch milliseconds (tests). */
  now?: () => number;
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Builds the sandbox runtime. */
export function createToolRunner(options: ToolRunnerOptions = {}): SandboxRunner {
  const quarantine = createQuarantineBook(options.now);
  const pool = new IsolatePool(
    Math.max(1, Math.floor(options.maxIsolatesPerTool ?? 2)),
    (toolId, message) => {
      const verdict = quarantine.recordFailure(toolId);
      options.onCatastrophicError?.({ toolId, message, ...verdict });
    },
  );
  const hostPool = new HostWorkerPool();
  const egress = options.egress ?? createEgressGuard(options.egressOptions);
  const lineChars = options.maxConsoleLineChars ?? 4096;
  const errorChars = options.maxErrorChars ?? 2000;
  const maxParserInputChars = options.maxParserInputChars ?? 16 * 1024 * 1024;
  let closed = false;

  const fsFor = (policy: SandboxPolicy): FsSpec | null => {
    if (!policy.fileRead && !policy.fileWrite) return null;
    const scope =
      policy.fsBasePath !== null
        ? createFsScope(policy.fsBasePath)
        : options.workspaceDir !== undefined
          ? createFsScope(options.workspaceDir, options.readRoots ?? [])
          : null;
    if (scope === null) return null;
    return {
      scope,
      grants: { read: policy.fileRead, write: policy.fileWrite, destructive: policy.destructive },
      limits: options.fsLimits ?? {},
    };
  };

  const run = async (request: ToolRunRequest): Promise<ToolRunResult> => {
    const started = performance.now();
    let masker: Masker = createMasker(request.secrets);
    // Tool code gets handles, never the values, unless its spec declares `secretsInCode`.
    const vault = createSecretVault(request.policy.secretsInCode === true ? [] : request.secrets);
    const margin = longestSecret(request.secrets);
    const consoleLines: string[] = [];
    const durationMs = (): number => Math.round((performance.now() - started) * 1000) / 1000;
    const failure = (code: string, message: string, reason?: string): ToolRunResult =>
      failureResult(
        {
          toolName: request.toolName,
          limits: request.policy.limits,
          masker,
          margin,
          errorChars,
          console: consoleLines,
          durationMs: durationMs(),
        },
        code,
        message,
        reason,
      );

    if (closed) return failure('SANDBOX_ERROR', 'the tool runner is closed', 'runner-closed');
    if (request.signal?.aborted) return failure('SANDBOX_ERROR', 'the call was cancelled', 'cancelled');
    const quarantineReason = quarantine.reasonFor(request.toolId);
    if (quarantineReason !== null) {
      return failure(
        'SANDBOX_LIMIT',
        `${request.toolName} is ${quarantineReason}; an operator can lift the quarantine (docs/operations.md)`,
        'quarantined',
      );
    }
    // safety.fs and safety.parser run in a worker thread: start one while the isolate is being prepared.
    if (request.code.includes('safety.')) hostPool.warm();
    let boundArgs;
    try {
      boundArgs = bindArguments(concealArguments(request.args, vault));
    } catch (error) {
      if (isPortcullisError(error)) return failure(error.code, error.message, error.reason);
      throw error;
    }
    const limits = normalizeLimits(request.policy.limits);
    const policy: SandboxPolicy = { ...request.policy, limits };
    const fs = fsFor(policy);
    const callController = new AbortController();
    const hostContext: HostContext = {
      policy,
      env: { fs, fileRead: policy.fileRead, fileWrite: policy.fileWrite, maxParserInputChars },
      egress,
      signal: callController.signal,
      deadline: started + limits.wallTimeMs,
      secrets: vault,
    };

    let tool: ToolIsolate | null = null;
    let prepared: PreparedContext | null = null;
    let finished: Promise<unknown> | undefined;
    let settled = false;
    let resolveOutcome!: (outcome: Outcome) => void;
    const outcome = new Promise<Outcome>((resolve) => {
      resolveOutcome = resolve;
    });
    const settle = (value: Outcome): void => {
      if (settled) return;
      settled = true;
      resolveOutcome(value);
    };
    // A breach ends the call at once and kills whatever the isolate is running.
    const breach = (value: Outcome): void => {
      if (settled) return;
      settle(value);
      tool?.dispose();
    };

    const wallTimer = setTimeout(() => breach({ kind: 'limit', reason: 'wall-clock' }), limits.wallTimeMs);
    const onCancel = (): void => breach({ kind: 'cancelled' });
    request.signal?.addEventListener('abort', onCancel, { once: true });
    let cpuTimer: ReturnType<typeof setInterval> | null = null;
    let cpuStart = 0n;

    const config = {
      args: boundArgs,
      network: policy.networkMode !== 'blocked',
      fs:
        policy.fileRead || policy.fileWrite
          ? { workspace: fs?.scope.workspace ?? '', readRoots: [...(fs?.scope.readRoots ?? [])] }
          : null,
      maxConsoleEntries: limits.maxConsoleEntries,
      consoleChars: lineChars + margin,
      errorChars: errorChars + margin,
      maxResultBytes: limits.maxResultBytes,
    };

    const bridge: IsolateBridge = {
      sync: (op, args) => {
        if (!isSecretOperation(op)) return runHostOperation(hostContext, hostPool, op, args);
        const reply = runSecretOperation(vault, op, args);
        // A derived value (a Basic credential) is masked like the secrets it came from.
        masker = masker.with(vault.values());
        return Promise.resolve(reply);
      },
      async: (id, op, args, reply) => {
        if (typeof id !== 'number') return;
        runAsyncOperation(hostContext, op, args).then(
          (value) => {
            if (!settled) reply(id, true, value);
          },
          (error: unknown) => {
            if (!settled) reply(id, false, toHelperError(error));
          },
        );
      },
      log: (level, line, cut) => {
        if (settled || typeof line !== 'string' || consoleLines.length >= limits.maxConsoleEntries) return;
        const prefix = level === 'log' || level === 'info' ? '' : `[${String(level)}] `;
        consoleLines.push(maskAndClip(`${prefix}${line}`, cut === true, lineChars, masker, margin));
      },
      done: (kind, payload) => {
        const reported = outcomeFromReport(kind, payload);
        if (reported.kind === 'limit') breach(reported);
        else settle(reported);
      },
    };

    const isolateFailure = (error: unknown): void => {
      if (settled) return;
      if (closed) settle({ kind: 'failed', message: 'the tool runner is closed', reason: 'runner-closed' });
      else if (tool !== null && tool.disposed && !tool.disposedByHost)
        breach({ kind: 'limit', reason: 'memory' });
      else if (/memory limit/i.test(errorText(error))) breach({ kind: 'limit', reason: 'memory' });
      else settle({ kind: 'failed', message: errorText(error), reason: 'isolate-failure' });
    };

    const execute = async (): Promise<void> => {
      const acquiring = pool.acquire(request.toolId, limits.memoryMb, callController.signal);
      const acquired = await Promise.race([acquiring, outcome.then(() => null)]);
      if (acquired === null) {
        acquiring.then(
          (late) => pool.release(late, { reusable: true, fenceMs: 1000 }),
          () => undefined,
        );
        return;
      }
      tool = acquired;
      if (settled) return;
      prepared = tool.takeSpare() ?? (await tool.prepare());
      if (settled) return;
      let script;
      try {
        script = await tool.compile(request.code);
      } catch (error) {
        settle({ kind: 'failed', message: errorText(error), reason: 'compile-error' });
        return;
      }
      if (settled) return;
      prepared.bind(bridge);
      // Queued before the script on the isolate's task queue: the configuration is in place when it starts.
      prepared.context.global.setIgnored('__pcCfg', new ivm.ExternalCopy(config).copyInto({ release: true }));
      const active = tool;
      cpuStart = active.isolate.cpuTime;
      const budgetNs = BigInt(limits.cpuTimeMs) * 1_000_000n;
      cpuTimer = setInterval(
        () => {
          if (active.catastrophic !== null) {
            breach({ kind: 'limit', reason: 'memory' });
            return;
          }
          if (active.disposed) {
            if (!active.disposedByHost) breach({ kind: 'limit', reason: 'memory' });
            return;
          }
          if (active.isolate.cpuTime - cpuStart > budgetNs) breach({ kind: 'limit', reason: 'cpu-time' });
        },
        Math.max(5, Math.min(50, Math.floor(limits.cpuTimeMs / 4))),
      );
      finished = script.run(prepared.context);
      finished.catch(isolateFailure);
    };

    execute().catch(isolateFailure);
    const result = await outcome;

    clearTimeout(wallTimer);
    if (cpuTimer !== null) clearInterval(cpuTimer);
    request.signal?.removeEventListener('abort', onCancel);
    callController.abort(new PortcullisError('HELPER_RUNTIME', 'the call ended', { reason: 'aborted' }));
    const finalTool = tool as ToolIsolate | null;
    const finalContext = prepared as PreparedContext | null;
    finalContext?.bind(null);
    if (finalTool !== null) {
      const healthy = (result.kind === 'ok' || result.kind === 'error') && !finalTool.disposed;
      if (healthy) {
        const cpuUsedMs = Number((finalTool.isolate.cpuTime - cpuStart) / 1_000_000n);
        const remainingWall = started + limits.wallTimeMs - performance.now();
        const fenceMs = Math.max(20, Math.min(remainingWall, limits.cpuTimeMs - cpuUsedMs));
        pool.release(finalTool, {
          reusable: true,
          fenceMs,
          context: finalContext,
          ...(finished === undefined ? {} : { finished }),
        });
      } else {
        finalTool.dispose();
        pool.release(finalTool, { reusable: false, fenceMs: 0, context: finalContext });
      }
    }

    return outcomeToResult(result, {
      toolName: request.toolName,
      limits,
      masker,
      margin,
      errorChars,
      console: consoleLines,
      durationMs: durationMs(),
    });
  };

  return {
    run,
    evict: (toolId) => {
      quarantine.forget(toolId);
      pool.evict(toolId);
    },
    unquarantine: (toolId) => quarantine.lift(toolId),
    quarantined: () => quarantine.list(),
    stats: () => ({ isolates: pool.stats(), hostWorkers: hostPool.stats(), ...pool.stats() }),
    close: async () => {
      closed = true;
      pool.closeAll(
        new PortcullisError('SANDBOX_ERROR', 'the tool runner is closed', { reason: 'runner-closed' }),
      );
      await hostPool.close();
    },
  };
}
