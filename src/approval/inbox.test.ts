import { describe, expect, it } from 'vitest';
import { createApprovalInbox, type InboxEvent, type InboxRequest } from './inbox.ts';

// A fake clock with timers the test fires by advancing time.
function fakeTime() {
  let now = 1_000;
  const timers: { at: number; run: () => void; live: boolean }[] = [];
  return {
    now: () => now,
    after(run: () => void, ms: number) {
      const timer = { at: now + ms, run, live: true };
      timers.push(timer);
      return () => (timer.live = false);
    },
    advance(ms: number) {
      now += ms;
      for (const timer of timers.filter((t) => t.live && t.at <= now)) {
        timer.live = false;
        timer.run();
      }
    },
  };
}

function setup(limits: { maxPending?: number; maxPerPrincipal?: number } = {}) {
  const time = fakeTime();
  const inbox = createApprovalInbox({
    ttlMs: 10_000,
    maxPending: limits.maxPending ?? 5,
    maxPerPrincipal: limits.maxPerPrincipal ?? 3,
    now: time.now,
    after: time.after,
  });
  const events: InboxEvent['type'][] = [];
  inbox.subscribe((event) => events.push(event.type));
  return { inbox, time, events };
}

const request = (principal = 'alice', argsDigest = 'd1'): InboxRequest => ({
  principal,
  alias: 'files_write',
  argsDigest,
  upstream: 'files',
  tool: 'write',
  origin: 'upstream',
  risk: 'L3',
  arguments: { path: '/tmp/x' },
  prompt: 'Allow files_write?',
  era: 'legacy',
});
const bind = (principal = 'alice', argsDigest = 'd1') => ({ principal, alias: 'files_write', argsDigest });

const submit = (inbox: ReturnType<typeof setup>['inbox'], r = request()) => {
  const result = inbox.submit(r);
  if (!result.ok) throw new Error(result.reason);
  return result.entry;
};

describe('createApprovalInbox', () => {
  it.each([
    ['approve', 'approved'],
    ['decline', 'declined'],
  ] as const)('hands a waiting call the verdict once: %s', async (verdict, outcome) => {
    const { inbox, events } = setup();
    const entry = submit(inbox);
    expect(entry).toMatchObject({ status: 'pending', createdAt: 1_000, expiresAt: 11_000 });
    const waiting = inbox.wait(entry.id, bind());
    expect(inbox.decide(entry.id, verdict, { actor: 'ops', reason: 'looked' })).toMatchObject({ ok: true });
    expect(await waiting).toEqual({ outcome, actor: 'ops', reason: 'looked', at: 1_000 });
    expect(inbox.size).toBe(0);
    expect(await inbox.wait(entry.id, bind())).toEqual({ outcome: 'unknown' });
    expect(events).toEqual(['added', outcome, 'claimed']);
  });

  it('keeps an answer for a call that comes back for it (modern retry), until the window ends', async () => {
    const { inbox, time } = setup();
    const first = submit(inbox);
    const second = submit(inbox, request('alice', 'd2'));
    inbox.decide(first.id, 'approve', { actor: 'ops', reason: 'ok' });
    inbox.decide(second.id, 'approve', { actor: 'ops', reason: 'ok' });
    time.advance(5_000);
    expect(await inbox.wait(first.id, bind())).toMatchObject({ outcome: 'approved' });
    time.advance(5_000);
    expect(await inbox.wait(second.id, bind('alice', 'd2'))).toEqual({ outcome: 'unknown' });
  });

  it('expires an unanswered entry and wakes its waiter', async () => {
    const { inbox, time, events } = setup();
    const entry = submit(inbox);
    const waiting = inbox.wait(entry.id, bind());
    time.advance(10_000);
    expect(await waiting).toEqual({ outcome: 'expired' });
    expect(inbox.list()).toEqual([]);
    expect(events).toEqual(['added', 'expired']);
  });

  it('answers pending after the hold, and the entry stays for the next round', async () => {
    const { inbox, time } = setup();
    const entry = submit(inbox);
    const waiting = inbox.wait(entry.id, bind(), { holdMs: 2_000 });
    time.advance(2_000);
    expect(await waiting).toEqual({ outcome: 'pending' });
    expect(inbox.get(entry.id)?.status).toBe('pending');
  });

  it('answers pending when the waiter goes away', async () => {
    const { inbox } = setup();
    const entry = submit(inbox);
    const controller = new AbortController();
    const waiting = inbox.wait(entry.id, bind(), { signal: controller.signal });
    controller.abort();
    expect(await waiting).toEqual({ outcome: 'pending' });
    inbox.withdraw(entry.id);
    expect(inbox.size).toBe(0);
  });

  it.each([
    ['another principal', bind('mallory')],
    ['other arguments', bind('alice', 'd9')],
    ['another tool', { principal: 'alice', alias: 'files_delete', argsDigest: 'd1' }],
  ])('gives nothing to %s', async (_name, binding) => {
    const { inbox } = setup();
    const entry = submit(inbox);
    inbox.decide(entry.id, 'approve', { actor: 'ops', reason: 'ok' });
    expect(await inbox.wait(entry.id, binding)).toEqual({ outcome: 'unknown' });
    expect(inbox.get(entry.id)?.status).toBe('approved');
  });

  it('refuses a second answer and an unknown id', () => {
    const { inbox } = setup();
    const entry = submit(inbox);
    inbox.decide(entry.id, 'decline', { actor: 'ops', reason: 'no' });
    expect(inbox.decide(entry.id, 'approve', { actor: 'ops', reason: 'yes' })).toEqual({
      ok: false,
      reason: 'already-decided',
    });
    expect(inbox.decide('nope', 'approve', { actor: 'ops', reason: 'yes' })).toEqual({
      ok: false,
      reason: 'not-found',
    });
  });

  it.each([
    ['the whole inbox', { maxPending: 2, maxPerPrincipal: 5 }, ['alice', 'bob', 'carol'], /inbox is full/],
    ['one principal', { maxPending: 5, maxPerPrincipal: 2 }, ['alice', 'alice', 'alice'], /already has 2/],
  ])('bounds %s', (_name, limits, principals, refusal) => {
    const { inbox } = setup(limits);
    const results = principals.map((p, i) => inbox.submit(request(p, `d${i}`)));
    expect(results.slice(0, 2).every((r) => r.ok)).toBe(true);
    expect(results[2]).toMatchObject({ ok: false, reason: expect.stringMatching(refusal) });
    // Another principal still fits when only one principal's share is full.
    if (limits.maxPending > 3) expect(inbox.submit(request('bob', 'dx')).ok).toBe(true);
  });

  it('denies every waiting call on close', async () => {
    const { inbox } = setup();
    const waiting = inbox.wait(submit(inbox).id, bind());
    inbox.close();
    expect(await waiting).toEqual({ outcome: 'expired' });
  });
});
