/**
 * The contract between the spec domain (and the gateway) and the sandbox runtime: run one tool's code with
 * arguments under an effective policy. The isolated-vm implementation lives beside this file.
 */
import type { SandboxPolicy } from './policy.ts';
import type { HostPoolStats } from './runtime/host-worker-pool.ts';
import type { IsolatePoolStats } from './runtime/isolate-pool.ts';
import type { QuarantineEntry } from './runtime/quarantine.ts';

/** One tool invocation in the sandbox. */
export interface ToolRunRequest {
  /** A stable id of the tool (the spec toolId); isolates and compiled code are cached per id. */
  toolId: string;
  /** Tool name, for messages. */
  toolName: string;
  /** The JavaScript body, run as an async function body; its return value is the result. */
  code: string;
  /** Model-supplied parameters merged with resolved static variables; each bound as a top-level identifier. */
  args: Record<string, unknown>;
  /** Resolved secret values to mask in console output, results and errors. */
  secrets: readonly string[];
  policy: SandboxPolicy;
  /** Aborts the run (client cancellation). */
  signal?: AbortSignal;
}

/** Outcome of one run. */
export type ToolRunResult =
  | { ok: true; value: unknown; console: string[]; durationMs: number }
  | {
      ok: false;
      /** A stable code from errors/codes.ts, e.g. SANDBOX_LIMIT, SANDBOX_ERROR, SECURITY. */
      code: string;
      message: string;
      reason?: string;
      console: string[];
      durationMs: number;
    };

/** Runs tools in the sandbox. */
export interface ToolRunner {
  run(request: ToolRunRequest): Promise<ToolRunResult>;
  /** Drops the cached isolate of a tool (spec changed or removed). */
  evict(toolId: string): void;
  /** Disposes every isolate. */
  close(): Promise<void>;
  /** Lifts a tool's quarantine (operator action); false when it was not quarantined or not supported. */
  unquarantine?(toolId: string): boolean;
}

/** Counters of the sandbox runtime: its isolates (also spread at the top level) and host worker threads. */
export interface SandboxStats extends IsolatePoolStats {
  isolates: IsolatePoolStats;
  hostWorkers: HostPoolStats;
}

/** The isolated-vm runner: a ToolRunner with quarantine control and counters. */
export interface SandboxRunner extends ToolRunner {
  unquarantine(toolId: string): boolean;
  /** The tools quarantined now, with their reasons. */
  quarantined(): QuarantineEntry[];
  stats(): SandboxStats;
}
