/**
 * An upstream's 2026-era `input_required` round on its way to a modern client (docs/architecture.md, "Parked
 * modern-era calls"): the upstream's requests are relayed under its own keys (an elicitation marked as the
 * upstream's, a sampling request reviewed first), its `requestState` travels sealed inside the gateway's own
 * (`approval/request-state.ts`, `u.`), and the client's retry is opened against the same call before its answers
 * go back to that upstream with its state. Used by tools/call and prompts/get alike.
 */
import {
  inputRequired,
  ProtocolError,
  ProtocolErrorCode,
  type InputRequest,
  type InputRequiredResult,
} from '@modelcontextprotocol/server';
import { openRelayState, sealRelayState, type RequestStateBinding } from '../approval/index.ts';
import type { AuditUpstreamRequest } from '../audit/index.ts';
import type { UpstreamInputAsk } from '../calls/index.ts';
import { PortcullisError } from '../errors/index.ts';
import type { CallerCapabilities, UpstreamRetry } from '../upstream/index.ts';
import type { GatewayCore } from './gateway-core.ts';
import type { UpstreamQuestion } from './parked-calls.ts';
import { markAsUpstreams } from './upstream-questions.ts';
import { isRecord } from '../shared/index.ts';

/** A relayed question as the SDK's input request. */
export function asInputRequest(question: UpstreamQuestion): InputRequest {
  if (question.kind === 'sampling') return inputRequired.createMessage(question.params);
  const { params } = question;
  if (params.mode === 'url') {
    return inputRequired.elicitUrl({ message: params.message, url: params.url });
  }
  return inputRequired.elicit({
    message: params.message,
    requestedSchema: params.requestedSchema as Parameters<typeof inputRequired.elicit>[0]['requestedSchema'],
  });
}

function cannotAnswer(upstream: string, what: string): PortcullisError {
  return new PortcullisError(
    'UPSTREAM_ERROR',
    `upstream "${upstream}" asked the client for ${what}, which this client did not declare; nothing was shown`,
    { reason: 'client-cannot-answer' },
  );
}

/**
 * A relayed call's retries are not counted by rate limits (its first round was) for this many rounds; the next
 * retry is counted like a new call and starts the count again, so a client that keeps a call going without end
 * (leaving the upstream's question unanswered makes it ask again) still meets its rate limits.
 */
export const MAX_UNCOUNTED_ROUNDS = 16;

/** What a relayed round carries on from the call's earlier rounds. */
export interface CarriedRound {
  /** The approval-policy version under which the person already approved this call. */
  approvedUnder?: string | undefined;
  /** Rounds since rate limits last counted the call (1 for the round that was counted). */
  rounds?: number;
}

/**
 * The gateway's own `input_required` for an upstream's round, its questions masked (a sampling request by its
 * review). An elicitation the client cannot answer is
 * answered `decline` by the gateway on the retry; sampling or roots it cannot answer, or a sampling request the
 * review refuses, end the call (UPSTREAM_ERROR).
 */
export function relayUpstreamRound(
  core: Pick<GatewayCore, 'sealer' | 'reviewSampling' | 'maskDeep'>,
  binding: RequestStateBinding,
  ask: UpstreamInputAsk,
  can: CallerCapabilities,
  carried: CarriedRound = {},
): InputRequiredResult {
  const { approvedUnder } = carried;
  const inputRequests: Record<string, InputRequest> = {};
  const declined: string[] = [];
  for (const [key, request] of Object.entries(ask.inputRequests)) {
    if (request.method === 'elicitation/create') {
      if (can.elicitation) {
        inputRequests[key] = asInputRequest({
          kind: 'elicitation',
          params: markAsUpstreams(core.maskDeep(request.params), ask.upstream),
        });
      } else declined.push(key);
    } else if (request.method === 'sampling/createMessage') {
      if (!can.sampling) throw cannotAnswer(ask.upstream, 'sampling');
      const review = core.reviewSampling(binding.alias, request.params);
      if (!review.relay) {
        throw new PortcullisError(
          'UPSTREAM_ERROR',
          `Portcullis refused the sampling request of upstream "${ask.upstream}": ${review.reason}`,
          { reason: 'sampling-refused' },
        );
      }
      inputRequests[key] = asInputRequest({ kind: 'sampling', params: review.params });
    } else {
      if (!can.roots) throw cannotAnswer(ask.upstream, 'its roots');
      inputRequests[key] = inputRequired.listRoots();
    }
  }
  const asked = Object.keys(inputRequests);
  const requestState = sealRelayState(core.sealer, binding, {
    upstream: ask.upstream,
    ...(ask.requestState === undefined ? {} : { upstreamState: ask.requestState }),
    asked,
    declined,
    ...(approvedUnder === undefined ? {} : { approvedUnder }),
    rounds: carried.rounds ?? 1,
  });
  // Every request declined by the gateway: a state-only round, which the client re-sends as it is.
  return inputRequired({ ...(asked.length > 0 ? { inputRequests } : {}), requestState });
}

/** A retry of a relayed round, opened: what goes back upstream, and what the round noted for the audit record. */
export interface ReopenedRound {
  retry: UpstreamRetry & { upstream: string };
  approvedUnder?: string;
  noted: AuditUpstreamRequest[];
  /** Rounds since rate limits last counted the call, as the state carried them. */
  rounds: number;
}

/** The JSON-RPC error of a relay state that does not open (stable code REQUEST_STATE_INVALID). */
export function invalidRelayState(): ProtocolError {
  return new ProtocolError(
    ProtocolErrorCode.InvalidParams,
    'requestState is invalid, expired, already used or bound to another caller, tool or arguments; ' +
      'call again without requestState',
    { code: 'REQUEST_STATE_INVALID' },
  );
}

/** How a relayed answer ended, for the audit record. */
function noteOf(answer: Record<string, unknown>): AuditUpstreamRequest | undefined {
  const action = answer['action'];
  if (action === 'accept' || action === 'decline' || action === 'cancel')
    return { kind: 'elicitation', outcome: action };
  if (typeof answer['model'] === 'string') return { kind: 'sampling', outcome: 'answered' };
  return Array.isArray(answer['roots']) ? { kind: 'roots', outcome: 'answered' } : undefined;
}

/**
 * Opens a retry's relay state against this call (using it up) and picks the client's answers to the keys the
 * round asked; other keys are dropped, a missing or malformed answer is left out (the upstream asks again), and
 * the elicitations the gateway declined are answered `decline`. A state that does not open is a JSON-RPC error.
 */
export function reopenRelayedRound(
  core: Pick<GatewayCore, 'sealer'>,
  state: string,
  binding: RequestStateBinding,
  inputResponses: Record<string, unknown> | undefined,
): ReopenedRound {
  const round = openRelayState(core.sealer, state, binding);
  if (round === undefined) throw invalidRelayState();
  const answers: Record<string, unknown> = {};
  const noted: AuditUpstreamRequest[] = [];
  for (const key of round.asked) {
    const answer =
      inputResponses !== undefined && Object.hasOwn(inputResponses, key) ? inputResponses[key] : undefined;
    if (!isRecord(answer)) continue;
    answers[key] = answer;
    const note = noteOf(answer);
    if (note) noted.push(note);
  }
  for (const key of round.declined) {
    answers[key] = { action: 'decline' };
    noted.push({ kind: 'elicitation', outcome: 'refused' });
  }
  return {
    retry: {
      upstream: round.upstream,
      inputResponses: answers,
      ...(round.upstreamState === undefined ? {} : { requestState: round.upstreamState }),
    },
    ...(round.approvedUnder === undefined ? {} : { approvedUnder: round.approvedUnder }),
    noted,
    // A state without the count was sealed by a gateway that did not keep it: counted as if at the bound.
    rounds: round.rounds ?? MAX_UNCOUNTED_ROUNDS,
  };
}
