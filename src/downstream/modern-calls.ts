/**
 * The 2026-era call path: the client cannot be asked mid-call, so an approval prompt or an upstream question
 * ends the round with `input_required` and a sealed `requestState` (`approval/request-state.ts`); a running
 * upstream call waits in the parking lot (`parked-calls.ts`) until the client retries with its answer. A call
 * waiting in the approval inbox ends each round with a state-only `input_required` the client re-sends.
 */
import {
  inputRequired,
  ProtocolError,
  ProtocolErrorCode,
  type CallToolResult,
  type InputRequiredResult,
} from '@modelcontextprotocol/server';
import {
  argsDigest,
  isConsoleState,
  isParkedState,
  isRelayState,
  openApprovalState,
  openConsoleState,
  sealConsoleState,
  openParkedState,
  sealApprovalState,
  sealParkedState,
  type ElicitationOutcome,
  type RequestStateBinding,
} from '../approval/index.ts';
import type { AuditUpstreamRequest } from '../audit/index.ts';
import {
  ApprovalPending,
  ApprovalRequired,
  UpstreamInputRequired,
  type UpstreamInputAsk,
} from '../calls/index.ts';
import { argumentLimitError } from '../calls/index.ts';
import type { CallerCapabilities, UpstreamElicitation, UpstreamSampling } from '../upstream/index.ts';
import type { ModernCall, GatewayCore, ModernRequestState } from './gateway-core.ts';
import type { ParkedCall, ParkedStep, PendingInput } from './parked-calls.ts';
import { markAsUpstreams, relayElicitation, relaySampling } from './upstream-questions.ts';
import {
  asInputRequest,
  relayUpstreamRound,
  reopenRelayedRound,
  MAX_UNCOUNTED_ROUNDS,
  type ReopenedRound,
} from './upstream-relay.ts';

/** inputRequests keys of a relayed upstream question, by kind. */
const UPSTREAM_INPUT_KEYS = { elicitation: 'upstream_elicitation', sampling: 'upstream_sampling' } as const;
const APPROVAL_KEY = 'approval';
const TOO_MANY_PARKED = 'too many calls are waiting for client input';

/**
 * Reads the approval answer of a retried call. The state must open against this exact call and the current
 * policy version; a tampered, replayed, expired or swapped state denies the call ('invalid-state').
 * `verified` is true only for a state that opened (at most once, the sealer uses it up): only that retry was
 * already counted by the rate limits.
 */
function readApprovalAnswer(
  core: GatewayCore,
  state: string,
  binding: RequestStateBinding,
  request: ModernRequestState,
): { answer: ElicitationOutcome; verified: boolean } {
  if (!openApprovalState(core.sealer, state, binding, core.policyVersion())) {
    return { answer: 'invalid-state', verified: false };
  }
  const answer = request.inputResponses?.[APPROVAL_KEY] as { action?: unknown } | undefined;
  const action = answer?.action;
  return {
    answer: action === 'accept' || action === 'decline' || action === 'cancel' ? action : 'cancel',
    verified: true,
  };
}

/** Takes the parked call a retry's state names and hands it the client's answer; refuses any other state. */
function resumeParked(
  core: GatewayCore,
  state: string,
  binding: RequestStateBinding,
  request: ModernRequestState,
) {
  const id = openParkedState(core.sealer, state, binding);
  const taken = id === undefined ? undefined : core.parked.take(id, binding);
  if (!taken) {
    throw new ProtocolError(
      ProtocolErrorCode.InvalidParams,
      'requestState is invalid, expired, already used or bound to another call',
    );
  }
  taken.pending.answer(request.inputResponses?.[UPSTREAM_INPUT_KEYS[taken.pending.question.kind]]);
  return taken.call;
}

/**
 * What a retry's state carries into the approval stage: the inbox entry a console state names (that retry was
 * counted in its first round), or the answer of an approval round.
 */
function readRetryState(
  core: GatewayCore,
  state: string,
  binding: RequestStateBinding,
  request: ModernRequestState,
): { answer: ElicitationOutcome; verified: boolean } | { consoleEntry: string } {
  if (isConsoleState(state)) {
    const entry = openConsoleState(core.sealer, state, binding, core.policyVersion());
    return entry === undefined ? { answer: 'invalid-state', verified: false } : { consoleEntry: entry };
  }
  return readApprovalAnswer(core, state, binding, request);
}

/**
 * The approval a relayed round carries on: given under the policy still in force, it counts as this retry's
 * verified answer (the call was counted and approved in its first round), so nobody is asked twice.
 */
function carriedApproval(
  core: GatewayCore,
  relayed: ReopenedRound | undefined,
): { answer: ElicitationOutcome; verified: boolean } | undefined {
  if (relayed?.approvedUnder === undefined || relayed.approvedUnder !== core.policyVersion())
    return undefined;
  return { answer: 'accept', verified: true };
}

/**
 * Starts the call in the parking lot, feeding it the answer of an approval round when the retry carries one, or
 * the answers of a relayed upstream round; an upstream round it meets is relayed carrying the approval given so far.
 */
function startParked(
  call: ModernCall,
  binding: RequestStateBinding,
  state: unknown,
  relayed?: ReopenedRound,
): ParkedCall {
  const { core, alias, upstreamId } = call;
  const asked: AuditUpstreamRequest[] = [...(relayed?.noted ?? [])];
  const retry =
    relayed === undefined && typeof state === 'string'
      ? readRetryState(core, state, binding, call)
      : undefined;
  const approvalAnswer = retry !== undefined && 'answer' in retry ? retry : carriedApproval(core, relayed);
  const approved =
    (approvalAnswer?.answer === 'accept' && approvalAnswer.verified) ||
    (retry !== undefined && 'consoleEntry' in retry);
  // A relay state opens once, for this call only: its first round was counted, its next rounds are not (bounded).
  const uncounted = relayed !== undefined && relayed.rounds < MAX_UNCOUNTED_ROUNDS;
  const carried = {
    approvedUnder: approved ? core.policyVersion() : undefined,
    rounds: uncounted ? relayed.rounds + 1 : 1,
  };
  return core.parked.start(binding, (ask, signal) =>
    // The call's own fields go in through caller(extra), not as `{ ...call.caller(), signal, … }`: V8 copies a
    // spread followed by more members on its slow path (some 4 µs here), and leaves the copy slow to read.
    core.pipeline.call(
      alias,
      call.args,
      call.caller({
        signal,
        canElicit: call.clientCanElicit,
        upstreamRequests: asked,
        relayInput: callerCapabilities(call),
        relayRound: (ask: UpstreamInputAsk) =>
          relayUpstreamRound(core, binding, ask, callerCapabilities(call), carried),
        ...(relayed === undefined ? {} : { upstreamRetry: relayed.retry }),
        ...(approvalAnswer === undefined
          ? {}
          : { approvalAnswer: approvalAnswer.answer, approvalVerified: approvalAnswer.verified }),
        ...(retry !== undefined && 'consoleEntry' in retry
          ? { consoleEntry: retry.consoleEntry, approvalVerified: true }
          : {}),
        // Last: whether a relayed retry counts depends on its rounds alone, whatever approval it carries.
        ...(relayed === undefined ? {} : { approvalVerified: uncounted }),
        ...(call.clientCanElicit
          ? {
              askClient: (params: UpstreamElicitation) =>
                relayElicitation(() => ask.elicit(markAsUpstreams(params, upstreamId)), asked),
            }
          : {}),
        ...(call.clientCanSample
          ? {
              askSampling: (params: UpstreamSampling) =>
                relaySampling(core, alias, params, (reviewed) => ask.sample(reviewed), asked),
            }
          : {}),
      }),
    ),
  );
}

function parkForInput(
  core: GatewayCore,
  call: ParkedCall,
  pending: PendingInput,
  binding: RequestStateBinding,
): InputRequiredResult {
  if (!core.parked.park(call, pending)) {
    pending.end('decline', TOO_MANY_PARKED);
    call.abort(TOO_MANY_PARKED);
    throw new ProtocolError(ProtocolErrorCode.InternalError, `${TOO_MANY_PARKED}; retry later`);
  }
  return inputRequired({
    inputRequests: { [UPSTREAM_INPUT_KEYS[pending.question.kind]]: asInputRequest(pending.question) },
    requestState: sealParkedState(core.sealer, binding, call.id),
  });
}

/** What this call's client declared it can answer. */
const callerCapabilities = (call: ModernCall): CallerCapabilities => ({
  elicitation: call.clientCanElicit,
  sampling: call.clientCanSample,
  roots: call.clientCanListRoots,
});

/** Runs one round of a 2026-era tools/call: the result, or `input_required` with a sealed state. */
export async function callModern(call: ModernCall): Promise<CallToolResult | InputRequiredResult> {
  const { core, alias, args } = call;
  // Arguments beyond the door limits are never digested: the pipeline refuses and records them at once.
  if (argumentLimitError(alias, args))
    return call.project(await core.pipeline.call(alias, args, call.caller()));
  const binding: RequestStateBinding = { principal: call.principal.id, alias, argsDigest: argsDigest(args) };
  const state = call.requestState;
  let parked: ParkedCall;
  if (typeof state === 'string' && isParkedState(state)) parked = resumeParked(core, state, binding, call);
  else {
    const relayed =
      typeof state === 'string' && isRelayState(state)
        ? reopenRelayedRound(core, state, binding, call.inputResponses)
        : undefined;
    parked = startParked(call, binding, state, relayed);
  }
  let step: ParkedStep;
  try {
    step = await parked.next(call.signal);
  } catch (error) {
    if (error instanceof ApprovalRequired) {
      return inputRequired({
        inputRequests: {
          [APPROVAL_KEY]: inputRequired.elicit({
            message: error.prompt,
            requestedSchema: { type: 'object', properties: {} },
          }),
        },
        requestState: sealApprovalState(core.sealer, binding, error.policyVersion),
      });
    }
    // The call waits in the approval inbox: no question for the client, only a state to re-send (it polls).
    if (error instanceof ApprovalPending) {
      return inputRequired({
        requestState: sealConsoleState(core.sealer, binding, error.policyVersion, error.entryId),
      });
    }
    // The upstream asks for input: its round, built, screened and recorded by the pipeline, goes to the client.
    if (error instanceof UpstreamInputRequired && error.relayed !== undefined) return error.relayed;
    throw error;
  }
  if (step.kind === 'done') return call.project(step.result);
  return parkForInput(core, parked, step.input, binding);
}
