import { describe, expect, it } from 'vitest';
import { parseTrustSignals } from './trust-signals.ts';

describe('parseTrustSignals (R-SRV-3)', () => {
  it.each<[string[], string[]]>([
    [['vendor-official'], ['VENDOR_OFFICIAL']],
    [['VENDOR_OFFICIAL'], ['VENDOR_OFFICIAL']],
    [[' Vendor_Official '], ['VENDOR_OFFICIAL']],
    [['community'], ['COMMUNITY_CURATED']],
    [['community_curated', 'community'], ['COMMUNITY_CURATED']],
    [
      ['audited', 'widely-used', 'aged-6mo', 'last_reviewed_recent'],
      ['AUDITED', 'WIDELY_USED', 'AGED_6MO', 'LAST_REVIEWED_RECENT'],
    ],
    [['archived', 'constructor', '__proto__', ''], []],
  ])('%j → %j', (raw, expected) => {
    expect(parseTrustSignals(raw)).toEqual(expected);
  });
});
