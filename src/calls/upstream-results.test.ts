/**
 * An upstream's input round as the gateway reads it: relayed only where the call relays rounds, bounded in
 * count, key length, kinds and state size; anything else is UPSTREAM_ERROR and nothing reaches the client.
 */
import { describe, expect, it } from 'vitest';
import type { CallToolResult } from '@modelcontextprotocol/server';
import { isPortcullisError } from '../errors/index.ts';
import { acceptUpstreamToolResult, readUpstreamInputAsk, UpstreamInputRequired } from './upstream-results.ts';

const elicit = {
  method: 'elicitation/create',
  params: { message: 'Name?', requestedSchema: { type: 'object' } },
};
const round = (over: Record<string, unknown> = {}) => ({
  resultType: 'input_required',
  inputRequests: { name: elicit },
  requestState: 'opaque',
  ...over,
});

function reasonOf(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return isPortcullisError(error) ? `${error.code}:${String(error.reason)}` : error;
  }
  return 'no error';
}

describe('readUpstreamInputAsk', () => {
  it('reads a round of the three relayed kinds under the upstream keys', () => {
    const ask = readUpstreamInputAsk(
      round({
        inputRequests: {
          name: elicit,
          greeting: { method: 'sampling/createMessage', params: { messages: [], maxTokens: 5 } },
          roots: { method: 'roots/list', params: {} },
        },
      }),
      'up',
    );
    expect(ask?.upstream).toBe('up');
    expect(Object.keys(ask?.inputRequests ?? {})).toEqual(['name', 'greeting', 'roots']);
    expect(ask?.requestState).toBe('opaque');
  });

  it('reads nothing from a plain result', () => {
    expect(readUpstreamInputAsk({ content: [] }, 'up')).toBeUndefined();
  });

  it.each([
    ['an unknown method', round({ inputRequests: { x: { method: 'tools/call', params: {} } } })],
    [
      'too many requests',
      round({ inputRequests: Object.fromEntries([...Array(17).keys()].map((i) => [`k${i}`, elicit])) }),
    ],
    ['a long key', round({ inputRequests: { ['k'.repeat(65)]: elicit } })],
    ['no requests', round({ inputRequests: {} })],
    ['a state that is not a string', round({ requestState: { nested: true } })],
    ['a state over 8 KiB', round({ requestState: 's'.repeat(8_193) })],
    ['inputRequests without resultType', { inputRequests: { name: elicit } }],
  ])('refuses %s', (_what, result) => {
    expect(reasonOf(() => readUpstreamInputAsk(result, 'up'))).toBe(
      'UPSTREAM_ERROR:upstream-input-malformed',
    );
  });
});

describe('acceptUpstreamToolResult', () => {
  it('hands a relayable round on as UpstreamInputRequired, and refuses it where the call does not relay', () => {
    const result = round() as unknown as CallToolResult;
    expect(() => acceptUpstreamToolResult(result, 'up', true)).toThrow(UpstreamInputRequired);
    expect(reasonOf(() => acceptUpstreamToolResult(result, 'up', false))).toBe(
      'UPSTREAM_ERROR:upstream-input-required',
    );
  });
});
