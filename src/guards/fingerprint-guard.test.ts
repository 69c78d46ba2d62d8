import { describe, expect, it } from 'vitest';
import type { LedgerStatus } from '../ledger/index.ts';
import { fingerprintGuard } from './fingerprint-guard.ts';
import { localTool, upstreamTool } from './test/fixtures.ts';

const withStatus = (status: LedgerStatus | undefined) => {
  const tool = upstreamTool('files', 'read_file');
  if (status !== undefined)
    tool.governance = { ...tool.governance, fingerprint: { hash: 'h', profile: 'p', status } };
  return tool;
};

describe('fingerprintGuard', () => {
  it.each([
    ['an ACTIVE record', withStatus('ACTIVE'), 'allow', undefined],
    [
      'a definition awaiting re-review',
      withStatus('AWAITING_REREVIEW'),
      'withhold',
      'fingerprint-awaiting-rereview',
    ],
    ['a revoked tool', withStatus('REVOKED'), 'withhold', 'fingerprint-revoked'],
    ['a tool never fingerprinted', withStatus(undefined), 'allow', undefined],
    ['a local tool', localTool('hash-text'), 'allow', undefined],
  ] as const)('%s → %s', (_name, tool, kind, reason) => {
    const [decision] = fingerprintGuard.decide([tool], () => false);
    expect(decision?.kind).toBe(kind);
    if (decision?.kind === 'withhold') {
      expect(decision.reason).toBe(reason);
      expect(decision.findings[0]?.message).toContain('files::read_file');
    }
  });
});
