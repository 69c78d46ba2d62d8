/**
 * Upstream calls parked while a modern-era client answers an upstream-initiated elicitation or sampling request
 * (where sampling is relayed). A modern client cannot receive a server-to-client request, so the gateway answers
 * the round with `input_required`, keeps the upstream call running here, and resumes it when the client retries
 * with its answer. Bounded in time and count, and bound to the principal, alias and arguments of the call that
 * started it.
 */
import { randomBytes } from 'node:crypto';
import {
  ProtocolError,
  ProtocolErrorCode,
  type CallToolResult,
  type CreateMessageResult,
  type ElicitResult,
} from '@modelcontextprotocol/server';
import type { UpstreamElicitation, UpstreamSampling } from '../upstream/index.ts';

/** What the upstream asks the client mid-call. */
export type UpstreamQuestion =
  { kind: 'elicitation'; params: UpstreamElicitation } | { kind: 'sampling'; params: UpstreamSampling };

/** A question the upstream is waiting on. */
export interface PendingInput {
  question: UpstreamQuestion;
  /** Hands the client's answer on; a missing or malformed answer ends the question as `end('cancel')` would. */
  answer(response: unknown): void;
  /** Ends the question unanswered: an elicitation gets `action`, a sampling request is refused with `reason`. */
  end(action: 'decline' | 'cancel', reason: string): void;
}

/** How a parked call's upstream puts its questions to the client. */
export interface QuestionAsker {
  elicit(params: UpstreamElicitation): Promise<ElicitResult>;
  sample(params: UpstreamSampling): Promise<CreateMessageResult>;
}

function isElicitResult(value: unknown): value is ElicitResult {
  const action = (value as { action?: unknown } | null)?.action;
  return action === 'accept' || action === 'decline' || action === 'cancel';
}

/** The fields every sampling result has (the upstream's SDK validates the rest). */
function isSamplingResult(value: unknown): value is CreateMessageResult {
  const v = value as { role?: unknown; content?: unknown; model?: unknown } | null;
  return typeof v?.role === 'string' && typeof v.model === 'string' && typeof v.content === 'object';
}

function pendingElicitation(params: UpstreamElicitation, resolve: (r: ElicitResult) => void): PendingInput {
  return {
    question: { kind: 'elicitation', params },
    answer: (response) => resolve(isElicitResult(response) ? response : { action: 'cancel' }),
    end: (action) => resolve({ action }),
  };
}

function pendingSampling(
  params: UpstreamSampling,
  resolve: (r: CreateMessageResult) => void,
  reject: (error: Error) => void,
): PendingInput {
  const refuse = (reason: string) =>
    reject(new ProtocolError(ProtocolErrorCode.InvalidRequest, `sampling request not answered: ${reason}`));
  return {
    question: { kind: 'sampling', params },
    answer: (response) =>
      isSamplingResult(response) ? resolve(response) : refuse('the client sent no sampling result'),
    end: (_action, reason) => refuse(reason),
  };
}

/** What a parked call produces next: its final result, or another question for the client. */
export type ParkedStep = { kind: 'done'; result: CallToolResult } | { kind: 'input'; input: PendingInput };

/** A running upstream call that may stop to ask the client. */
export interface ParkedCall {
  readonly id: string;
  readonly principal: string;
  readonly alias: string;
  readonly argsDigest: string;
  /** Waits for the next step; `signal` is the current round's cancellation. */
  next(signal: AbortSignal): Promise<ParkedStep>;
  /** Aborts the upstream call. */
  abort(reason: string): void;
}

/** Holds parked calls between rounds. */
export interface ParkedCalls {
  /**
   * Starts an upstream call whose questions to the client (elicitation, sampling) become steps. `run` receives
   * the asker and an abort signal.
   */
  start(
    binding: { principal: string; alias: string; argsDigest: string },
    run: (ask: QuestionAsker, signal: AbortSignal) => Promise<CallToolResult>,
  ): ParkedCall;
  /** Parks a call that waits for the client's answer to `pending`; refuses when the bound is reached. */
  park(call: ParkedCall, pending: PendingInput): boolean;
  /** Removes and returns a parked call and its open question if the binding matches. */
  take(
    id: string,
    binding: { principal: string; alias: string; argsDigest: string },
  ): { call: ParkedCall; pending: PendingInput } | undefined;
  readonly size: number;
  close(): void;
}

/** Options of the parking lot. */
export interface ParkedCallsOptions {
  ttlMs: number;
  maxParked: number;
  /** Runs `run` once after `ms` unless the returned cancel is called first; an unref'd timer by default. */
  after?(run: () => void, ms: number): () => void;
}

const afterUnref = (run: () => void, ms: number): (() => void) => {
  const timer = setTimeout(run, ms);
  timer.unref();
  return () => clearTimeout(timer);
};

/** Creates the parking lot; parked calls expire after `ttlMs` (answered `cancel`, upstream call aborted). */
export function createParkedCalls(options: ParkedCallsOptions): ParkedCalls {
  const after = options.after ?? afterUnref;
  const parked = new Map<string, { call: ParkedCall; cancelExpiry: () => void; pending: PendingInput }>();

  const start: ParkedCalls['start'] = (binding, run) => {
    const controller = new AbortController();
    const inputs: PendingInput[] = [];
    let wake: (() => void) | undefined;
    let outcome: { result: CallToolResult } | undefined;
    let failure: { error: unknown } | undefined;

    const queue = (pending: PendingInput) => {
      inputs.push(pending);
      wake?.();
    };
    const ask: QuestionAsker = {
      elicit: (params) => new Promise((resolve) => queue(pendingElicitation(params, resolve))),
      sample: (params) => new Promise((resolve, reject) => queue(pendingSampling(params, resolve, reject))),
    };
    run(ask, controller.signal).then(
      (result) => {
        outcome = { result };
        wake?.();
      },
      (error: unknown) => {
        failure = { error };
        wake?.();
      },
    );

    const call: ParkedCall = {
      id: randomBytes(16).toString('base64url'),
      ...binding,
      async next(signal) {
        const onAbort = () => controller.abort(signal.reason);
        signal.addEventListener('abort', onAbort, { once: true });
        try {
          for (;;) {
            if (failure) throw failure.error;
            if (outcome) return { kind: 'done', result: outcome.result };
            const input = inputs.shift();
            if (input) return { kind: 'input', input };
            await new Promise<void>((resolve) => (wake = resolve));
            wake = undefined;
          }
        } finally {
          signal.removeEventListener('abort', onAbort);
        }
      },
      abort(reason) {
        controller.abort(new Error(reason));
      },
    };
    return call;
  };

  return {
    start,
    park(call, pending) {
      if (parked.size >= options.maxParked) return false;
      const cancelExpiry = after(() => {
        pending.end('cancel', 'the client did not answer in time');
        parked.delete(call.id);
        call.abort('the client did not answer the upstream question in time');
      }, options.ttlMs);
      parked.set(call.id, { call, cancelExpiry, pending });
      return true;
    },
    take(id, binding) {
      const entry = parked.get(id);
      if (!entry) return undefined;
      const { call } = entry;
      if (
        call.principal !== binding.principal ||
        call.alias !== binding.alias ||
        call.argsDigest !== binding.argsDigest
      ) {
        return undefined;
      }
      entry.cancelExpiry();
      parked.delete(id);
      return { call, pending: entry.pending };
    },
    get size() {
      return parked.size;
    },
    close() {
      for (const { call, cancelExpiry } of parked.values()) {
        cancelExpiry();
        call.abort('gateway shutting down');
      }
      parked.clear();
    },
  };
}
