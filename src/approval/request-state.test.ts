/**
 * The requestState codec over a real sealer: each kind opens only as itself, only against the call it was
 * sealed for, only under the policy in force, and only once.
 */
import { describe, expect, it } from 'vitest';
import {
  argsDigest,
  createApprovalSealer,
  isParkedState,
  isRelayState,
  openApprovalState,
  openParkedState,
  openRelayState,
  sealApprovalState,
  sealParkedState,
  sealRelayState,
  type RequestStateBinding,
} from './index.ts';
import { isPortcullisError } from '../errors/index.ts';

const TTL = 60_000;

function setup() {
  const clock = { now: 5_000_000 };
  const sealer = createApprovalSealer({ key: 'k'.repeat(32), clock: () => clock.now, ttlMs: TTL });
  return { clock, sealer };
}

const call = (over: Partial<RequestStateBinding> = {}): RequestStateBinding => ({
  principal: 'alice',
  alias: 'files_write',
  argsDigest: argsDigest({ path: '/tmp/a' }),
  ...over,
});

describe('approval request state', () => {
  it('opens once for the same call under the same policy', () => {
    const { sealer } = setup();
    const state = sealApprovalState(sealer, call(), 'v7');
    expect(state.startsWith('a.')).toBe(true);
    expect(isParkedState(state)).toBe(false);
    expect(openApprovalState(sealer, state, call(), 'v7')).toBe(true);
    expect(openApprovalState(sealer, state, call(), 'v7')).toBe(false);
  });

  it.each([
    ['another principal', call({ principal: 'bob' }), 'v7'],
    ['another tool', call({ alias: 'files_delete' }), 'v7'],
    ['other arguments', call({ argsDigest: argsDigest({ path: '/etc/passwd' }) }), 'v7'],
    ['a changed policy', call(), 'v8'],
  ])('does not open for %s', (_what, binding, policy) => {
    const { sealer } = setup();
    const state = sealApprovalState(sealer, call(), 'v7');
    expect(openApprovalState(sealer, state, binding, policy)).toBe(false);
  });

  it('does not open once expired, nor without its prefix', () => {
    const { clock, sealer } = setup();
    const state = sealApprovalState(sealer, call(), 'v7');
    expect(openApprovalState(sealer, state.slice(2), call(), 'v7')).toBe(false);
    clock.now += TTL;
    expect(openApprovalState(sealer, state, call(), 'v7')).toBe(false);
  });
});

describe('parked request state', () => {
  it('names its parked call once, for the same call only', () => {
    const { sealer } = setup();
    const state = sealParkedState(sealer, call(), 'parked-1');
    expect(isParkedState(state)).toBe(true);
    expect(openParkedState(sealer, state, call({ alias: 'other' }))).toBeUndefined();
    const again = sealParkedState(sealer, call(), 'parked-1');
    expect(openParkedState(sealer, again, call())).toBe('parked-1');
    expect(openParkedState(sealer, again, call())).toBeUndefined();
  });

  it('never lets one kind pass for the other, even with the prefix swapped', () => {
    const { sealer } = setup();
    const approval = sealApprovalState(sealer, call(), 'v7');
    const parked = sealParkedState(sealer, call(), 'parked-2');
    expect(openParkedState(sealer, `p.${approval.slice(2)}`, call())).toBeUndefined();
    expect(openApprovalState(sealer, `a.${parked.slice(2)}`, call(), 'v7')).toBe(false);
    // A policy version that spells the upstream-input one still lives in the approval namespace.
    const lookalike = sealApprovalState(sealer, call(), 'upstream-input/v1');
    expect(openParkedState(sealer, `p.${lookalike.slice(2)}`, call())).toBeUndefined();
  });
});

describe('relayed upstream round state', () => {
  const round = {
    upstream: 'conf',
    upstreamState: '{"kind":"secret-upstream-state"}',
    asked: ['q'],
    declined: [],
  };

  it('carries the upstream state sealed, and opens once for the same call only', () => {
    const { sealer } = setup();
    const state = sealRelayState(sealer, call(), round);
    expect(isRelayState(state)).toBe(true);
    expect(state).not.toContain('secret-upstream-state');
    expect(openRelayState(sealer, state, call({ principal: 'bob' }))).toBeUndefined();
    expect(openRelayState(sealer, state, call({ alias: 'prompt:files_write' }))).toBeUndefined();
    expect(openRelayState(sealer, state, call())).toEqual(round);
    expect(openRelayState(sealer, state, call())).toBeUndefined();
  });

  it('never opens another kind of state, nor opens as one', () => {
    const { sealer } = setup();
    const approval = sealApprovalState(sealer, call(), 'v1');
    expect(openRelayState(sealer, `u.${approval.slice(2)}`, call())).toBeUndefined();
    const relay = sealRelayState(sealer, call(), round);
    expect(openParkedState(sealer, `p.${relay.slice(2)}`, call())).toBeUndefined();
    expect(openApprovalState(sealer, `a.${relay.slice(2)}`, call(), 'v1')).toBe(false);
  });

  it('expires with the sealer ttl', () => {
    const { clock, sealer } = setup();
    const state = sealRelayState(sealer, call(), round);
    clock.now += TTL;
    expect(openRelayState(sealer, state, call())).toBeUndefined();
  });

  it('refuses an upstream state too large to open again (UPSTREAM_ERROR), rather than a state that never opens', () => {
    const { sealer } = setup();
    const error = (() => {
      try {
        sealRelayState(sealer, call(), { ...round, upstreamState: '\u0001'.repeat(8_000) });
      } catch (e) {
        return e;
      }
      return undefined;
    })();
    expect(isPortcullisError(error) && error.code).toBe('UPSTREAM_ERROR');
  });
});
