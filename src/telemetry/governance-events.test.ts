import { describe, expect, it } from 'vitest';
import { ledgerMismatchOf, poisoningHitOf } from './governance-events.ts';

describe('governance events as telemetry facts', () => {
  it('reads an upstream tool poisoning hit: patterns and fields in first-seen order, deduplicated', () => {
    const hit = poisoningHitOf({
      type: 'PoisoningHit',
      subject: 'mut_extra',
      payload: {
        upstream: 'mut',
        tool: 'extra',
        matches: [
          { patternId: 'P2', fieldPath: 'description', offset: 3 },
          { patternId: 'P1', fieldPath: 'inputSchema/properties/a/description', offset: 0 },
          { patternId: 'P2', fieldPath: 'description', offset: 9 },
        ],
      },
    });
    expect(hit).toEqual({
      alias: 'mut_extra',
      upstream: 'mut',
      tool: 'extra',
      patterns: ['P2', 'P1'],
      fields: ['description', 'inputSchema/properties/a/description'],
    });
  });

  it('reads a local tool poisoning hit, whose payload carries a match count instead of matches', () => {
    expect(
      poisoningHitOf({ type: 'PoisoningHit', subject: 'base64', payload: { local: 'base64', matches: 2 } }),
    ).toEqual({ alias: 'base64', tool: 'base64', patterns: [], fields: [] });
  });

  it('reads a ledger mismatch; a first sighting has no previous hash', () => {
    expect(
      ledgerMismatchOf({
        type: 'HashLedgerMismatch',
        subject: 'mut::extra',
        payload: { upstream: 'mut', tool: 'extra', previousHash: 'a1', currentHash: 'b2' },
      }),
    ).toEqual({
      upstream: 'mut',
      tool: 'extra',
      previousHash: 'a1',
      hash: 'b2',
      status: 'AWAITING_REREVIEW',
    });
    expect(
      ledgerMismatchOf({
        type: 'HashLedgerMismatch',
        payload: { upstream: 'mut', tool: 'x', currentHash: 'c' },
      }),
    ).not.toHaveProperty('previousHash');
  });

  it('names a changed prompt, resource or instructions by the event subject, which carries its kind', () => {
    expect(
      ledgerMismatchOf({
        type: 'HashLedgerMismatch',
        subject: 'prompt:notes::summarize',
        payload: { upstream: 'notes', kind: 'prompt', name: 'summarize', currentHash: 'c' },
      }).tool,
    ).toBe('prompt:notes::summarize');
  });
});
