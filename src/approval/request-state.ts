/**
 * The modern era's `requestState` as the gateway writes it: a one-letter prefix that tells the kinds apart
 * before any decryption (`a.` an approval round, `p.` a call parked on an upstream question, `c.` a call waiting
 * in the approval inbox), then a sealed,
 * call-bound, single-use token (see `sealer.ts`; the round trips are described in docs/architecture.md,
 * "Parked modern-era calls"). The client holds the state and is treated as an attacker.
 */
import { PortcullisError } from '../errors/index.ts';
import { MAX_TOKEN_CHARS, type ApprovalSealer } from './sealer.ts';

/** The call a request state is bound to. */
export interface RequestStateBinding {
  principal: string;
  alias: string;
  /** argsDigest(arguments) of the call. */
  argsDigest: string;
}

const APPROVAL_PREFIX = 'a.';
const PARKED_PREFIX = 'p.';
const CONSOLE_PREFIX = 'c.';
/** A parked call's state is sealed under this version: an upstream question is not an approval decision. */
const UPSTREAM_INPUT_POLICY = 'upstream-input/v1';

/** Approval states carry their own namespace, so no approval state can ever pass for an upstream-input one. */
const approvalPolicy = (version: string) => `approval:${version}`;

/** True when a state names a parked call (it may still fail to open). */
export function isParkedState(state: string): boolean {
  return state.startsWith(PARKED_PREFIX);
}

/** The state of an approval round, bound to the call and the version of the approval policy that asked. */
export function sealApprovalState(
  sealer: ApprovalSealer,
  binding: RequestStateBinding,
  policyVersion: string,
): string {
  return APPROVAL_PREFIX + sealer.seal({ ...binding, policyVersion: approvalPolicy(policyVersion) });
}

/**
 * True when `state` is an approval state that opens against this call under the policy in force; opening uses
 * it up, so a replay, a swap to another call, a policy change or expiry all read false.
 */
export function openApprovalState(
  sealer: ApprovalSealer,
  state: string,
  binding: RequestStateBinding,
  policyVersion: string,
): boolean {
  if (!state.startsWith(APPROVAL_PREFIX)) return false;
  return sealer.open(state.slice(APPROVAL_PREFIX.length), {
    ...binding,
    policyVersion: approvalPolicy(policyVersion),
  }).ok;
}

/** A call waiting in the approval inbox is its own namespace too: its state names an inbox entry, not an answer. */
const consolePolicy = (version: string) => `console:${version}`;

/** True when a state names a call waiting in the approval inbox (it may still fail to open). */
export function isConsoleState(state: string): boolean {
  return state.startsWith(CONSOLE_PREFIX);
}

/** The state of a call waiting in the approval inbox, naming its entry and bound to the call and the policy. */
export function sealConsoleState(
  sealer: ApprovalSealer,
  binding: RequestStateBinding,
  policyVersion: string,
  entryId: string,
): string {
  return (
    CONSOLE_PREFIX +
    sealer.seal({ ...binding, policyVersion: consolePolicy(policyVersion), extra: { inboxEntry: entryId } })
  );
}

/** The inbox entry a state names, when it opens against this call and policy (using it up); undefined otherwise. */
export function openConsoleState(
  sealer: ApprovalSealer,
  state: string,
  binding: RequestStateBinding,
  policyVersion: string,
): string | undefined {
  if (!isConsoleState(state)) return undefined;
  const opened = sealer.open(state.slice(CONSOLE_PREFIX.length), {
    ...binding,
    policyVersion: consolePolicy(policyVersion),
  });
  const id = opened.ok ? opened.payload.extra?.['inboxEntry'] : undefined;
  return typeof id === 'string' ? id : undefined;
}

/** The state of a call parked on an upstream question, naming the parked call. */
export function sealParkedState(
  sealer: ApprovalSealer,
  binding: RequestStateBinding,
  parkedCallId: string,
): string {
  return (
    PARKED_PREFIX +
    sealer.seal({ ...binding, policyVersion: UPSTREAM_INPUT_POLICY, extra: { parkedCall: parkedCallId } })
  );
}

/** The parked call a state names, when it opens against this call (using it up); undefined otherwise. */
export function openParkedState(
  sealer: ApprovalSealer,
  state: string,
  binding: RequestStateBinding,
): string | undefined {
  if (!isParkedState(state)) return undefined;
  const opened = sealer.open(state.slice(PARKED_PREFIX.length), {
    ...binding,
    policyVersion: UPSTREAM_INPUT_POLICY,
  });
  const id = opened.ok ? opened.payload.extra?.['parkedCall'] : undefined;
  return typeof id === 'string' ? id : undefined;
}

const RELAY_PREFIX = 'u.';
/** A relayed upstream round is its own namespace: no approval or parked state can pass for one. */
const UPSTREAM_RELAY_POLICY = 'upstream-relay/v1';

/** What the gateway keeps of an upstream's `input_required` round, sealed inside its own state. */
export interface RelayedRound {
  /** The upstream that asked: its answers and state go back to it alone. */
  upstream: string;
  /** The upstream's own requestState, opaque to the gateway and never shown to the client in clear. */
  upstreamState?: string;
  /** The upstream's keys the client was asked to answer. */
  asked: string[];
  /** The upstream's keys of elicitations the gateway answers `decline` itself (the client cannot elicit). */
  declined: string[];
  /** The approval-policy version under which the person already approved this call, if they did. */
  approvedUnder?: string;
  /** Rounds of this call since rate limits last counted it (absent in states sealed before it was kept). */
  rounds?: number;
}

/** True when a state names a relayed upstream round (it may still fail to open). */
export function isRelayState(state: string): boolean {
  return state.startsWith(RELAY_PREFIX);
}

/**
 * The state of a relayed upstream round, bound to the call (principal, tool or prompt, arguments); UPSTREAM_ERROR
 * (reason `upstream-input-malformed`) when the upstream's own state would make it too large to open again.
 */
export function sealRelayState(
  sealer: ApprovalSealer,
  binding: RequestStateBinding,
  round: RelayedRound,
): string {
  const token = sealer.seal({
    ...binding,
    policyVersion: UPSTREAM_RELAY_POLICY,
    extra: { round: { ...round } },
  });
  if (token.length > MAX_TOKEN_CHARS) {
    throw new PortcullisError(
      'UPSTREAM_ERROR',
      `upstream "${round.upstream}" asked for input with a requestState too large for the gateway to carry`,
      { reason: 'upstream-input-malformed' },
    );
  }
  return RELAY_PREFIX + token;
}

/** The relayed round a state carries, when it opens against this call (using it up); undefined otherwise. */
export function openRelayState(
  sealer: ApprovalSealer,
  state: string,
  binding: RequestStateBinding,
): RelayedRound | undefined {
  if (!isRelayState(state)) return undefined;
  const opened = sealer.open(state.slice(RELAY_PREFIX.length), {
    ...binding,
    policyVersion: UPSTREAM_RELAY_POLICY,
  });
  const round = opened.ok ? opened.payload.extra?.['round'] : undefined;
  return isRelayedRound(round) ? round : undefined;
}

const isStringList = (value: unknown): value is string[] =>
  Array.isArray(value) && value.every((item) => typeof item === 'string');

function isRelayedRound(value: unknown): value is RelayedRound {
  if (value === null || typeof value !== 'object') return false;
  const v = value as Record<string, unknown>;
  return (
    typeof v['upstream'] === 'string' &&
    (v['upstreamState'] === undefined || typeof v['upstreamState'] === 'string') &&
    isStringList(v['asked']) &&
    isStringList(v['declined']) &&
    (v['approvedUnder'] === undefined || typeof v['approvedUnder'] === 'string') &&
    (v['rounds'] === undefined || Number.isSafeInteger(v['rounds']))
  );
}
