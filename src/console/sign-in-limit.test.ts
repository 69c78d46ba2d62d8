/** The sign-in limit on a fake clock: the window, Retry-After, the bounded table, client keys. */
import { describe, expect, it } from 'vitest';
import { clientKeyOf, createSignInLimiter } from './sign-in-limit.ts';

function limiter(capacity = 100) {
  const clock = { now: 5_000_000 };
  const limit = createSignInLimiter({ now: () => clock.now, maxFailures: 3, windowMs: 60_000, capacity });
  return { clock, limit };
}

describe('console sign-in limit', () => {
  it('refuses a client after its failures fill the window, until the window ends', () => {
    const { clock, limit } = limiter();
    expect([limit.failed('a'), limit.failed('a'), limit.failed('a')]).toEqual([false, false, true]);
    expect(limit.retryAfter('a')).toBe(60);
    expect(limit.retryAfter('b')).toBe(0);
    clock.now += 45_500;
    expect(limit.retryAfter('a')).toBe(15);
    clock.now += 14_500;
    expect(limit.retryAfter('a')).toBe(0);
    expect(limit.failed('a')).toBe(false);
  });

  it('remembers at most `capacity` clients, dropping the one seen longest ago', () => {
    const { limit } = limiter(3);
    for (const client of ['a', 'b', 'c']) for (let i = 0; i < 3; i += 1) limit.failed(client);
    limit.failed('a');
    for (let i = 0; i < 1000; i += 1) limit.failed(`spray-${i}`);
    expect(limit.size()).toBe(3);
    expect(limit.retryAfter('b')).toBe(0);
  });

  it('keys IPv4 as is, IPv4-mapped IPv6 as IPv4, IPv6 by its /64, no address as one key', () => {
    expect(clientKeyOf('203.0.113.7')).toBe('203.0.113.7');
    expect(clientKeyOf('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(clientKeyOf('2001:db8:1:2:aaaa::1')).toBe('2001:db8:1:2::/64');
    expect(clientKeyOf('2001:db8:1:2:bbbb:cccc:dddd:eeee')).toBe('2001:db8:1:2::/64');
    expect(clientKeyOf('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(clientKeyOf('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
    expect(clientKeyOf('::1')).toBe('0:0:0:0::/64');
    expect(clientKeyOf(undefined)).toBe('unknown');
  });
});
