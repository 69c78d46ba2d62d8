/** Console sessions: idle and absolute expiry on a fake clock, sign-out, CSRF tokens bound to their session. */
import { describe, expect, it } from 'vitest';
import { createSessions } from './sessions.ts';

const grant = { actor: 'admin:ops', role: 'operator' as const, authorization: 'Bearer k' };

function store(max = 10) {
  const clock = { now: 1_000_000 };
  const sessions = createSessions({ now: () => clock.now, idleMs: 1_000, absoluteMs: 5_000, max });
  return { clock, sessions };
}

describe('console sessions', () => {
  it('keeps a session alive while it is used, until its absolute lifetime', () => {
    const { clock, sessions } = store();
    const { id } = sessions.open(grant);
    for (let i = 0; i < 4; i += 1) {
      clock.now += 900;
      expect(sessions.touch(id)?.actor).toBe('admin:ops');
    }
    clock.now += 900; // 4500 ms after sign-in, used 900 ms ago: still live
    expect(sessions.touch(id)).toBeDefined();
    clock.now += 500; // 5000 ms after sign-in
    expect(sessions.touch(id)).toBeUndefined();
  });

  it('ends a session left idle, and one signed out', () => {
    const { clock, sessions } = store();
    const idle = sessions.open(grant).id;
    const out = sessions.open(grant).id;
    sessions.close(out);
    expect(sessions.touch(out)).toBeUndefined();
    clock.now += 999;
    expect(sessions.touch(idle)).toBeDefined();
    clock.now += 1_000;
    expect(sessions.touch(idle)).toBeUndefined();
  });

  it.each([undefined, '', 'short', 'x'.repeat(43), `${'A'.repeat(42)}=`])('knows no session %j', (id) => {
    const { sessions } = store();
    sessions.open(grant);
    expect(sessions.touch(id)).toBeUndefined();
  });

  it('binds each CSRF token to its own session', () => {
    const { sessions } = store();
    const a = sessions.open(grant).session;
    const b = sessions.open(grant).session;
    expect(a.csrf).not.toBe(b.csrf);
    expect(sessions.csrfMatches(a, a.csrf)).toBe(true);
    expect(sessions.csrfMatches(a, b.csrf)).toBe(false);
    expect(sessions.csrfMatches(a, undefined)).toBe(false);
    expect(sessions.csrfMatches(a, '')).toBe(false);
    expect(sessions.csrfMatches(a, [a.csrf])).toBe(false);
  });

  it('drops the oldest sessions beyond the cap', () => {
    const { sessions } = store(2);
    const first = sessions.open(grant).id;
    const second = sessions.open(grant).id;
    const third = sessions.open(grant).id;
    expect(sessions.touch(first)).toBeUndefined();
    expect(sessions.touch(second)).toBeDefined();
    expect(sessions.touch(third)).toBeDefined();
  });
});
