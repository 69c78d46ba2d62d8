/**
 * How one run ended, as reported by the isolate or decided by the host, and its mapping to a ToolRunResult:
 * the result is parsed from the JSON the isolate produced and masked; errors keep their helper code only when
 * the shim marked them as genuine helper errors.
 */
import type { ErrorCode } from '../../errors/index.ts';
import type { Masker } from '../../secrets/index.ts';
import type { SandboxLimits } from '../policy.ts';
import type { ToolRunResult } from '../runner.ts';
import { maskAndClip } from './clip.ts';

/** Which limit a run breached. */
export type LimitReason = 'memory' | 'cpu-time' | 'wall-clock' | 'result-size';

/** How a run ended. */
export type Outcome =
  | { kind: 'ok'; json: string }
  | {
      kind: 'error';
      name: string;
      message: string;
      cut: boolean;
      helper: boolean;
      code: unknown;
      reason: unknown;
    }
  | { kind: 'limit'; reason: LimitReason }
  | { kind: 'cancelled' }
  | { kind: 'failed'; message: string; reason: string };

/** What the mapping needs besides the outcome. */
export interface ResultContext {
  toolName: string;
  limits: SandboxLimits;
  masker: Masker;
  /** Longest secret length (see clip.ts). */
  margin: number;
  errorChars: number;
  console: string[];
  durationMs: number;
}

const HELPER_CODES = new Set<ErrorCode>(['SECURITY', 'INVALID_INPUT', 'HELPER_RUNTIME']);

function limitMessage(reason: LimitReason, toolName: string, limits: SandboxLimits): string {
  switch (reason) {
    case 'memory':
      return `${toolName} exceeded its memory limit of ${limits.memoryMb} MiB`;
    case 'cpu-time':
      return `${toolName} exceeded its CPU-time budget of ${limits.cpuTimeMs} ms`;
    case 'wall-clock':
      return `${toolName} exceeded its wall-clock deadline of ${limits.wallTimeMs} ms`;
    case 'result-size':
      return `${toolName} returned a result larger than ${limits.maxResultBytes} bytes`;
  }
}

/** Reads the `done` report of the isolate (untrusted shape, checked field by field). */
export function outcomeFromReport(kind: unknown, payload: unknown): Outcome {
  if (kind === 'ok' && typeof payload === 'string') return { kind: 'ok', json: payload };
  if (kind === 'limit') return { kind: 'limit', reason: 'result-size' };
  if (kind === 'error' && payload !== null && typeof payload === 'object') {
    const data = payload as Record<string, unknown>;
    return {
      kind: 'error',
      name: String(data.name ?? 'Error'),
      message: String(data.message ?? ''),
      cut: data.cut === true,
      helper: data.helper === true,
      code: data.code,
      reason: data.reason,
    };
  }
  return { kind: 'failed', message: 'the sandbox reported an unreadable outcome', reason: 'protocol' };
}

/** A failed result with a masked message. */
export function failureResult(
  context: ResultContext,
  code: string,
  message: string,
  reason?: string,
): ToolRunResult {
  return {
    ok: false,
    code,
    message: context.masker.mask(message),
    ...(reason === undefined ? {} : { reason }),
    console: context.console,
    durationMs: context.durationMs,
  };
}

/** Maps an outcome to the runner's result. */
export function outcomeToResult(outcome: Outcome, context: ResultContext): ToolRunResult {
  const { limits, masker } = context;
  switch (outcome.kind) {
    case 'ok': {
      if (Buffer.byteLength(outcome.json, 'utf8') > limits.maxResultBytes) {
        return failureResult(
          context,
          'SANDBOX_LIMIT',
          limitMessage('result-size', context.toolName, limits),
          'result-size',
        );
      }
      let parsed: unknown;
      try {
        parsed = JSON.parse(outcome.json);
      } catch {
        return failureResult(context, 'SANDBOX_ERROR', 'the tool result could not be read', 'protocol');
      }
      return {
        ok: true,
        value: masker.maskDeep(parsed),
        console: context.console,
        durationMs: context.durationMs,
      };
    }
    case 'error': {
      const helper = outcome.helper && HELPER_CODES.has(outcome.code as ErrorCode);
      const code = helper ? String(outcome.code) : 'SANDBOX_ERROR';
      const text = helper ? outcome.message : `${outcome.name}: ${outcome.message}`;
      const reason = helper && typeof outcome.reason === 'string' ? outcome.reason : undefined;
      return {
        ok: false,
        code,
        message: maskAndClip(text, outcome.cut, context.errorChars, masker, context.margin),
        ...(reason === undefined ? {} : { reason }),
        console: context.console,
        durationMs: context.durationMs,
      };
    }
    case 'limit':
      return failureResult(
        context,
        'SANDBOX_LIMIT',
        limitMessage(outcome.reason, context.toolName, limits),
        outcome.reason,
      );
    case 'cancelled':
      return failureResult(context, 'SANDBOX_ERROR', 'the call was cancelled', 'cancelled');
    case 'failed':
      return failureResult(context, 'SANDBOX_ERROR', outcome.message, outcome.reason);
  }
}
