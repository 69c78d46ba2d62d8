import { describe, expect, it } from 'vitest';
import { ledgerKey, parseLedgerKey, reviewLedgerRecord } from './ledger-review.ts';
import type { LedgerKind } from './types.ts';

describe('ledger keys', () => {
  it.each<[string, { upstream: string; tool: string; kind: LedgerKind } | undefined]>([
    ['files::read_file', { upstream: 'files', tool: 'read_file', kind: 'tool' }],
    ['files::a::b', { upstream: 'files', tool: 'a::b', kind: 'tool' }],
    ['prompt:files::summarize', { upstream: 'files', tool: 'summarize', kind: 'prompt' }],
    ['resource:files::file:///etc/hosts', { upstream: 'files', tool: 'file:///etc/hosts', kind: 'resource' }],
    [
      'resource-template:files::docs://{id}',
      { upstream: 'files', tool: 'docs://{id}', kind: 'resource-template' },
    ],
    [
      'server-instructions:files::instructions',
      { upstream: 'files', tool: 'instructions', kind: 'server-instructions' },
    ],
    ['tool:files::read_file', undefined],
    ['widget:files::x', undefined],
    // The first `::` ends the head: an upstream named `prompt` with a tool `:x`.
    ['prompt:::x', { upstream: 'prompt', tool: ':x', kind: 'tool' }],
    ['a:b:c::x', undefined],
    ['::x', undefined],
    ['files::', undefined],
    ['files', undefined],
  ])('%s', (key, parsed) => {
    expect(parseLedgerKey(key)).toEqual(parsed);
    if (parsed !== undefined) expect(ledgerKey(parsed.upstream, parsed.tool, parsed.kind)).toBe(key);
  });

  it('reviews a surface record under its kind’s key', () => {
    const review = reviewLedgerRecord({
      upstream: 'docs',
      kind: 'resource',
      tool: 'docs://readme',
      hash: 'h',
      profile: 'portcullis-resource/v1',
      status: 'ACTIVE',
      firstSeenAt: 1,
      curatedAt: null,
      publishedAt: null,
      previousHash: null,
    });
    expect(review).toMatchObject({ key: 'resource:docs::docs://readme', kind: 'resource', changed: false });
  });
});
