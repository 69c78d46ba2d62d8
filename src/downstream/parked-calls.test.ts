/**
 * The parking lot of modern-era calls: a running call's questions become steps, a parked call is taken back only
 * by the call it is bound to, the count is bounded, and expiry runs on the test's own timer (no real waiting).
 */
import type { CallToolResult, ElicitResult } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { createParkedCalls, type ParkedCall, type QuestionAsker } from './parked-calls.ts';

const BINDING = { principal: 'alice', alias: 'files_write', argsDigest: 'd1' };
const FORM = { message: 'Which file?', requestedSchema: { type: 'object' as const, properties: {} } };
const SAMPLING = { messages: [], maxTokens: 10 };

function lot(maxParked = 4) {
  const timers: { run: () => void; ms: number; cancelled: boolean }[] = [];
  const parked = createParkedCalls({
    ttlMs: 30_000,
    maxParked,
    after: (run, ms) => {
      const timer = { run, ms, cancelled: false };
      timers.push(timer);
      return () => (timer.cancelled = true);
    },
  });
  const expire = () => timers.filter((t) => !t.cancelled).forEach((t) => t.run());
  return { parked, timers, expire };
}

const text = (value: string): CallToolResult => ({ content: [{ type: 'text', text: value }] });

/** An upstream call that asks one elicitation and answers with what it got. */
function asksOnce(seen: { signal?: AbortSignal } = {}) {
  return async (ask: QuestionAsker, signal: AbortSignal) => {
    seen.signal = signal;
    const answer: ElicitResult = await ask.elicit(FORM);
    return text(`got ${answer.action} ${JSON.stringify(answer.content ?? {})}`);
  };
}

async function firstQuestion(call: ParkedCall) {
  const step = await call.next(new AbortController().signal);
  if (step.kind !== 'input') throw new Error(`expected a question, got ${step.kind}`);
  return step.input;
}

describe('parked calls', () => {
  it('runs a call without questions to its result', async () => {
    const { parked } = lot();
    const call = parked.start(BINDING, async () => text('done'));
    expect(await call.next(new AbortController().signal)).toEqual({ kind: 'done', result: text('done') });
  });

  it('turns a question into a step and resumes with the answer of the call it is bound to', async () => {
    const { parked, timers } = lot();
    const call = parked.start(BINDING, asksOnce());
    const pending = await firstQuestion(call);
    expect(pending.question).toEqual({ kind: 'elicitation', params: FORM });
    expect(parked.park(call, pending)).toBe(true);
    expect(timers.map((t) => t.ms)).toEqual([30_000]);

    for (const other of [
      { ...BINDING, principal: 'bob' },
      { ...BINDING, alias: 'files_delete' },
      { ...BINDING, argsDigest: 'd2' },
    ]) {
      expect(parked.take(call.id, other)).toBeUndefined();
    }
    expect(parked.take('no-such-call', BINDING)).toBeUndefined();
    expect(parked.size).toBe(1);

    const taken = parked.take(call.id, BINDING);
    expect(taken?.call).toBe(call);
    expect(parked.size).toBe(0);
    expect(timers[0]?.cancelled).toBe(true);
    taken?.pending.answer({ action: 'accept', content: { path: '/tmp/a' } });
    const step = await call.next(new AbortController().signal);
    expect(step).toEqual({ kind: 'done', result: text('got accept {"path":"/tmp/a"}') });
    expect(parked.take(call.id, BINDING)).toBeUndefined();
  });

  it('reads a malformed elicitation answer as cancel', async () => {
    const { parked } = lot();
    const call = parked.start(BINDING, asksOnce());
    (await firstQuestion(call)).answer({ action: 'yes please' });
    expect(await call.next(new AbortController().signal)).toEqual({
      kind: 'done',
      result: text('got cancel {}'),
    });
  });

  it('refuses a sampling request upstream when the answer is not a sampling result', async () => {
    const { parked } = lot();
    const call = parked.start(BINDING, async (ask) => {
      try {
        await ask.sample(SAMPLING);
        return text('sampled');
      } catch (error) {
        return text(`refused: ${(error as Error).message}`);
      }
    });
    const pending = await firstQuestion(call);
    expect(pending.question.kind).toBe('sampling');
    pending.answer({ action: 'accept' });
    const step = await call.next(new AbortController().signal);
    expect(step.kind === 'done' && JSON.stringify(step.result)).toContain(
      'the client sent no sampling result',
    );
  });

  it('refuses to park past its bound', async () => {
    const { parked } = lot(1);
    const first = parked.start(BINDING, asksOnce());
    const second = parked.start(BINDING, asksOnce());
    expect(parked.park(first, await firstQuestion(first))).toBe(true);
    expect(parked.park(second, await firstQuestion(second))).toBe(false);
    expect(parked.size).toBe(1);
    parked.close();
  });

  it('on expiry answers the upstream cancel, aborts the call and forgets it', async () => {
    const { parked, expire } = lot();
    const seen: { signal?: AbortSignal } = {};
    const call = parked.start(BINDING, asksOnce(seen));
    parked.park(call, await firstQuestion(call));
    expire();
    expect(parked.size).toBe(0);
    expect(seen.signal?.aborted).toBe(true);
    expect(parked.take(call.id, BINDING)).toBeUndefined();
    expect(await call.next(new AbortController().signal)).toEqual({
      kind: 'done',
      result: text('got cancel {}'),
    });
  });

  it('passes on the failure of the upstream call', async () => {
    const { parked } = lot();
    const call = parked.start(BINDING, async () => {
      throw new Error('upstream broke');
    });
    await expect(call.next(new AbortController().signal)).rejects.toThrow('upstream broke');
  });

  it("aborts the upstream call when the round's signal aborts while it runs", async () => {
    const { parked } = lot();
    const call = parked.start(
      BINDING,
      (_ask, signal) =>
        new Promise<CallToolResult>((_resolve, reject) =>
          signal.addEventListener('abort', () => reject(signal.reason as Error), { once: true }),
        ),
    );
    const round = new AbortController();
    const step = call.next(round.signal);
    round.abort(new Error('client went away'));
    await expect(step).rejects.toThrow('client went away');
  });

  it('aborts every parked call on close', async () => {
    const { parked, timers } = lot();
    const seen: { signal?: AbortSignal } = {};
    const call = parked.start(BINDING, asksOnce(seen));
    parked.park(call, await firstQuestion(call));
    parked.close();
    expect(parked.size).toBe(0);
    expect(seen.signal?.aborted).toBe(true);
    expect(timers.every((t) => t.cancelled)).toBe(true);
  });
});
