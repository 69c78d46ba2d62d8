import { afterEach, describe, expect, it, vi } from 'vitest';
import { createFirstConnects } from './first-connects.ts';

describe('createFirstConnects', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  const window = (ids: string[], states: Record<string, string>) => {
    const onSettled = vi.fn();
    const first = createFirstConnects({ ids, waitMs: 5000, stateOf: (id) => states[id], onSettled });
    return { first, onSettled };
  };

  it('is settled before start, open after it, and settles once when every first attempt has ended', () => {
    const states: Record<string, string> = { a: 'connecting', b: 'connecting' };
    const { first, onSettled } = window(['a', 'b'], states);
    expect(first.settled()).toBe(true);
    first.start();
    expect(first.settled()).toBe(false);
    // A change that leaves the upstream connecting is not the end of its attempt.
    first.settle('a');
    states.a = 'connected';
    first.settle('a');
    expect(first.settled()).toBe(false);
    states.b = 'down';
    first.settle('b');
    expect(first.settled()).toBe(true);
    first.settle('b');
    expect(onSettled).toHaveBeenCalledTimes(1);
  });

  it('settles at the end of the wait when an attempt is still running', () => {
    vi.useFakeTimers();
    const { first, onSettled } = window(['slow'], { slow: 'connecting' });
    first.start();
    vi.advanceTimersByTime(4999);
    expect(first.settled()).toBe(false);
    vi.advanceTimersByTime(1);
    expect(first.settled()).toBe(true);
    expect(onSettled).toHaveBeenCalledTimes(1);
  });

  it('never opens without upstreams, and a close ends the wait without the callback', () => {
    vi.useFakeTimers();
    const none = window([], {});
    none.first.start();
    expect(none.first.settled()).toBe(true);
    const closing = window(['a'], { a: 'connecting' });
    closing.first.start();
    closing.first.close();
    vi.advanceTimersByTime(10_000);
    expect(closing.first.settled()).toBe(true);
    expect(closing.onSettled).not.toHaveBeenCalled();
    expect(none.onSettled).not.toHaveBeenCalled();
  });
});
