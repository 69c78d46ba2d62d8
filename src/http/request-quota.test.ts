/** The per-principal quota of running 2026-era requests, and when an answer gives its slot back. */
import { describe, expect, it } from 'vitest';
import { createRequestQuota, releaseWhenAnswered } from './request-quota.ts';

describe('the request quota', () => {
  it('admits up to the limit per principal, each principal on its own, and takes a release only once', () => {
    const quota = createRequestQuota(2);
    const first = quota.admit('alice');
    const second = quota.admit('alice');
    expect(first && second).toBeTruthy();
    expect(quota.admit('alice')).toBeUndefined();
    expect(quota.admit('bob')).toBeTruthy();
    first?.();
    first?.();
    expect(quota.running('alice')).toBe(1);
    expect(quota.admit('alice')).toBeTruthy();
    expect(quota.admit('alice')).toBeUndefined();
  });
});

describe('releaseWhenAnswered', () => {
  const counted = () => {
    let releases = 0;
    return {
      release: () => void (releases += 1),
      get releases() {
        return releases;
      },
    };
  };

  it('releases an answer without a body at once', () => {
    const seen = counted();
    releaseWhenAnswered(new Response(null, { status: 202 }), seen.release);
    expect(seen.releases).toBe(1);
  });

  it('releases a body once it has been read to the end, and keeps status, headers and bytes', async () => {
    const seen = counted();
    const answer = releaseWhenAnswered(
      new Response('{"ok":true}', { status: 200, headers: { 'content-type': 'application/json' } }),
      seen.release,
    );
    expect(seen.releases).toBe(0);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('application/json');
    expect(await answer.text()).toBe('{"ok":true}');
    expect(seen.releases).toBe(1);
  });

  it('holds the slot while a stream is open and releases it when the reader cancels', async () => {
    const seen = counted();
    let cancelled = false;
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('event: message\n\n'));
      },
      cancel() {
        cancelled = true;
      },
    });
    const reader = releaseWhenAnswered(new Response(stream), seen.release).body?.getReader();
    await reader?.read();
    expect(seen.releases).toBe(0);
    await reader?.cancel('client gone');
    expect(seen.releases).toBe(1);
    expect(cancelled).toBe(true);
  });

  it('releases a body that fails', async () => {
    const seen = counted();
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        controller.error(new Error('upstream broke'));
      },
    });
    await expect(releaseWhenAnswered(new Response(stream), seen.release).text()).rejects.toThrow(
      'upstream broke',
    );
    expect(seen.releases).toBe(1);
  });
});
