import { describe, expect, it } from 'vitest';
import { createCleanupStack } from '../cleanup.ts';

describe('createCleanupStack', () => {
  it('unwinds newest first, down to a mark, each step once, past a failing step', async () => {
    const ran: string[] = [];
    const stack = createCleanupStack();
    stack.push(() => void ran.push('sink'));
    const mark = stack.depth();
    stack.push(async () => void ran.push('gateway'));
    stack.push(() => {
      throw new Error('client already gone');
    });
    stack.push(() => void ran.push('client'));
    await stack.unwind(mark);
    expect(ran).toEqual(['client', 'gateway']);
    expect(stack.depth()).toBe(1);
    await stack.unwind();
    await stack.unwind();
    expect(ran).toEqual(['client', 'gateway', 'sink']);
  });
});
