import { describe, expect, it } from 'vitest';
import { createClientRequestRouter, type DeclineReason, type InFlightCall } from './client-request-router.ts';
import type { UpstreamSampling } from './types.ts';

const SAMPLING: UpstreamSampling = {
  maxTokens: 10,
  messages: [{ role: 'user', content: { type: 'text', text: 'hi' } }],
};
const ANSWER = { model: 'm', role: 'assistant' as const, content: { type: 'text' as const, text: 'ok' } };
const signal = new AbortController().signal;

const caller = (can: { elicit?: boolean; sample?: boolean }): InFlightCall => ({
  signal,
  askClient: can.elicit ? async () => ({ action: 'accept', content: { ok: true } }) : undefined,
  ...(can.sample ? { askSampling: async () => ANSWER } : {}),
});

describe('createClientRequestRouter', () => {
  it.each<{
    name: string;
    calls: InFlightCall[];
    elicitation: 'accept' | 'decline';
    sampling: 'answered' | string;
    declined: [DeclineReason, string][];
    /** What each call was told was declined on its behalf, per call. */
    toldCalls: string[][];
  }>([
    {
      name: 'no call in flight: both declined',
      calls: [],
      elicitation: 'decline',
      sampling: 'no tool call of this client is in flight',
      declined: [
        ['no-call-in-flight', 'elicitation'],
        ['no-call-in-flight', 'sampling'],
      ],
      toldCalls: [],
    },
    {
      name: 'one able caller: both reach it',
      calls: [caller({ elicit: true, sample: true })],
      elicitation: 'accept',
      sampling: 'answered',
      declined: [],
      toldCalls: [[]],
    },
    {
      name: 'one caller that can elicit but not sample',
      calls: [caller({ elicit: true })],
      elicitation: 'accept',
      sampling: 'does not offer sampling',
      declined: [['caller-cannot-sample', 'sampling']],
      toldCalls: [['sampling']],
    },
    {
      name: 'one caller that can sample but not elicit',
      calls: [caller({ sample: true })],
      elicitation: 'decline',
      sampling: 'answered',
      declined: [['caller-cannot-elicit', 'elicitation']],
      toldCalls: [['elicitation']],
    },
    {
      name: 'two calls in flight: the caller is not certain, both declined',
      calls: [caller({ elicit: true, sample: true }), caller({ elicit: true, sample: true })],
      elicitation: 'decline',
      sampling: 'several tool calls are in flight',
      declined: [
        ['ambiguous-caller', 'elicitation'],
        ['ambiguous-caller', 'sampling'],
      ],
      // Neither call can be told: the request may not be theirs.
      toldCalls: [[], []],
    },
  ])('$name', async ({ calls, elicitation, sampling, declined, toldCalls }) => {
    const seen: [DeclineReason, string][] = [];
    const router = createClientRequestRouter((reason, request) => seen.push([reason, request]));
    const told = calls.map(() => [] as string[]);
    const untrack = calls.map((call, i) =>
      router.track({ ...call, onDeclined: (request) => told[i]?.push(request) }),
    );
    expect(router.inFlight).toBe(calls.length);

    const elicited = await router.route({
      message: 'name?',
      requestedSchema: { type: 'object', properties: {} },
    });
    expect(elicited.action).toBe(elicitation);
    if (sampling === 'answered') {
      await expect(router.routeSampling(SAMPLING)).resolves.toEqual(ANSWER);
    } else {
      await expect(router.routeSampling(SAMPLING)).rejects.toThrow(sampling);
    }
    expect(seen).toEqual(declined);
    expect(told).toEqual(toldCalls);

    for (const done of untrack) done();
    expect(router.inFlight).toBe(0);
  });
});
