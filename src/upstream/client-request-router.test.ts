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
    },
    {
      name: 'one able caller: both reach it',
      calls: [caller({ elicit: true, sample: true })],
      elicitation: 'accept',
      sampling: 'answered',
      declined: [],
    },
    {
      name: 'one caller that can elicit but not sample',
      calls: [caller({ elicit: true })],
      elicitation: 'accept',
      sampling: 'does not offer sampling',
      declined: [['caller-cannot-sample', 'sampling']],
    },
    {
      name: 'one caller that can sample but not elicit',
      calls: [caller({ sample: true })],
      elicitation: 'decline',
      sampling: 'answered',
      declined: [['caller-cannot-elicit', 'elicitation']],
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
    },
  ])('$name', async ({ calls, elicitation, sampling, declined }) => {
    const seen: [DeclineReason, string][] = [];
    const router = createClientRequestRouter((reason, request) => seen.push([reason, request]));
    const untrack = calls.map((call) => router.track(call));
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

    for (const done of untrack) done();
    expect(router.inFlight).toBe(0);
  });
});
