import { describe, expect, it } from 'vitest';
import { isPortcullisError } from '../errors/index.ts';
import { argsDigest, createApprovalSealer } from './index.ts';
import type { ApprovalBinding, OpenFailure } from './sealer.ts';

const KEY = 'k'.repeat(32);
const TTL = 60_000;

function setup(maxNonces?: number) {
  const clock = { now: 1_000_000 };
  const options = { key: KEY, clock: () => clock.now, ttlMs: TTL };
  const sealer = createApprovalSealer(maxNonces === undefined ? options : { ...options, maxNonces });
  return { clock, sealer };
}

const binding = (over: Partial<ApprovalBinding> = {}): ApprovalBinding => ({
  principal: 'alice',
  alias: 'files_write',
  argsDigest: argsDigest({ path: '/tmp/a', content: 'hi' }),
  policyVersion: 'p1',
  ...over,
});

describe('argsDigest', () => {
  it('ignores key order and treats absent arguments as {}', () => {
    expect(argsDigest({ a: 1, b: { c: 2, d: 3 } })).toBe(argsDigest({ b: { d: 3, c: 2 }, a: 1 }));
    expect(argsDigest({ a: 1 })).not.toBe(argsDigest({ a: 2 }));
    expect(argsDigest(undefined)).toBe(argsDigest({}));
    expect(argsDigest({})).toMatch(/^[0-9a-f]{64}$/);
  });
});

describe('approval sealer', () => {
  it('opens its own token once, giving back the binding, nonce, times and extra', () => {
    const { sealer } = setup();
    const token = sealer.seal({ ...binding(), nonce: 'n-1', extra: { elicitationId: 'e-7' } });
    expect(token).toMatch(/^v1\.[A-Za-z0-9_-]+$/);
    expect(token).not.toContain('alice');
    expect(sealer.open(token, binding())).toEqual({
      ok: true,
      payload: {
        ...binding(),
        nonce: 'n-1',
        issuedAt: 1_000_000,
        expiresAt: 1_060_000,
        extra: { elicitationId: 'e-7' },
      },
    });
  });

  it('makes a fresh random nonce and IV per seal', () => {
    const { sealer } = setup();
    const a = sealer.seal(binding());
    const b = sealer.seal(binding());
    expect(a).not.toBe(b);
    const opened = [sealer.open(a, binding()), sealer.open(b, binding())];
    expect(opened.every((o) => o.ok)).toBe(true);
  });

  it.each<[string, Partial<ApprovalBinding>]>([
    ['swapped arguments', { argsDigest: argsDigest({ path: '/etc/passwd', content: 'hi' }) }],
    ['another principal', { principal: 'mallory' }],
    ['an anonymous caller', { principal: null }],
    ['another tool', { alias: 'files_delete' }],
    ['a changed policy', { policyVersion: 'p2' }],
  ])('refuses a token presented with %s as a mismatch, without using it up', (_name, over) => {
    const { sealer } = setup();
    const token = sealer.seal(binding());
    expect(sealer.open(token, binding(over))).toEqual({ ok: false, reason: 'mismatch' });
    expect(sealer.open(token, binding()).ok).toBe(true);
  });

  it('refuses a replayed token', () => {
    const { sealer } = setup();
    const token = sealer.seal(binding());
    expect(sealer.open(token, binding()).ok).toBe(true);
    expect(sealer.open(token, binding())).toEqual({ ok: false, reason: 'replayed' });
  });

  it('refuses an expired token, at the expiry instant and after', () => {
    const { clock, sealer } = setup();
    const token = sealer.seal(binding());
    clock.now += TTL - 1;
    const early = sealer.seal(binding());
    clock.now += 1;
    expect(sealer.open(token, binding())).toEqual({ ok: false, reason: 'expired' });
    expect(sealer.open(early, binding()).ok).toBe(true);
  });

  it('keeps refusing a replay after the used nonce is pruned, because the token has expired by then', () => {
    const { clock, sealer } = setup();
    const token = sealer.seal(binding());
    expect(sealer.open(token, binding()).ok).toBe(true);
    clock.now += TTL;
    sealer.open(sealer.seal(binding()), binding());
    expect(sealer.open(token, binding())).toEqual({ ok: false, reason: 'expired' });
  });

  function flip(token: string, index: number): string {
    const chars = [...token];
    chars[index] = chars[index] === 'A' ? 'B' : 'A';
    return chars.join('');
  }

  it.each<[string, (token: string) => string]>([
    ['a flipped character in the IV', (t) => flip(t, 5)],
    ['a flipped character in the body', (t) => flip(t, 40)],
    ['a flipped character in the tag', (t) => flip(t, t.length - 3)],
    ['a truncated token', (t) => t.slice(0, -4)],
    ['another version prefix', (t) => `v2${t.slice(2)}`],
    ['no prefix', (t) => t.slice(3)],
    ['non-base64url characters', (t) => `${t}==`],
    ['an empty token', () => ''],
    ['a short token', () => 'v1.AAAA'],
    ['a huge token', () => `v1.${'A'.repeat(20_000)}`],
  ])('refuses %s as tampered', (_name, mutate) => {
    const { sealer } = setup();
    const token = sealer.seal(binding());
    expect(sealer.open(mutate(token), binding())).toEqual({ ok: false, reason: 'tampered' });
  });

  it('refuses another spelling of the same bytes (the unused low bits of the last character set)', () => {
    const { sealer } = setup();
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    const bytes = (t: string) => Buffer.from(t.slice(3), 'base64url');
    // One of three consecutive principal lengths leaves the byte count off a multiple of three: the token's
    // last character then carries bits no decoder reads.
    const principal = ['a', 'ab', 'abc'].find(
      (p) => bytes(sealer.seal(binding({ principal: p }))).length % 3 !== 0,
    );
    const token = sealer.seal(binding({ principal: principal as string }));
    const respelled = `${token.slice(0, -1)}${alphabet[alphabet.indexOf(token.at(-1) as string) ^ 1]}`;
    expect(bytes(respelled)).toEqual(bytes(token));
    expect(sealer.open(respelled, binding({ principal: principal as string }))).toEqual({
      ok: false,
      reason: 'tampered',
    });
  });

  it('refuses a token sealed with another key as tampered', () => {
    const { sealer } = setup();
    const other = createApprovalSealer({ key: 'z'.repeat(32), clock: () => 1_000_000, ttlMs: TTL });
    expect(sealer.open(other.seal(binding()), binding())).toEqual({ ok: false, reason: 'tampered' });
  });

  it('accepts a binary key', () => {
    const sealer = createApprovalSealer({ key: new Uint8Array(32).fill(7), clock: () => 0, ttlMs: TTL });
    expect(sealer.open(sealer.seal(binding()), binding()).ok).toBe(true);
  });

  it('remembers at most maxNonces used nonces, forgetting the oldest first', () => {
    const { sealer } = setup(2);
    const tokens = [1, 2, 3].map((n) => sealer.seal({ ...binding(), nonce: `n${n}` }));
    for (const token of tokens) expect(sealer.open(token, binding()).ok).toBe(true);
    const results: (true | OpenFailure)[] = [...tokens].reverse().map((t) => {
      const r = sealer.open(t, binding());
      return r.ok ? true : r.reason;
    });
    // n1 was forgotten when n3 came in: n3 and n2 are still refused, n1 opens again (the documented trade-off).
    expect(results).toEqual(['replayed', 'replayed', true]);
  });

  it.each([
    ['a short key', { key: 'short', clock: () => 0, ttlMs: TTL }],
    ['a zero ttl', { key: KEY, clock: () => 0, ttlMs: 0 }],
  ])('refuses %s', (_name, options) => {
    let error: unknown;
    try {
      createApprovalSealer(options);
    } catch (e) {
      error = e;
    }
    expect(isPortcullisError(error, 'CONFIG_INVALID')).toBe(true);
  });
});
