// Catalog trust signals (docs/rules/risk-model.md#r-srv-3-trust-signals).

/** A recognised catalog trust signal. */
export type TrustSignal =
  'VENDOR_OFFICIAL' | 'COMMUNITY_CURATED' | 'AUDITED' | 'WIDELY_USED' | 'AGED_6MO' | 'LAST_REVIEWED_RECENT';

const SIGNALS: ReadonlyMap<string, TrustSignal> = new Map([
  ['vendor-official', 'VENDOR_OFFICIAL'],
  ['community', 'COMMUNITY_CURATED'],
  ['community-curated', 'COMMUNITY_CURATED'],
  ['audited', 'AUDITED'],
  ['widely-used', 'WIDELY_USED'],
  ['aged-6mo', 'AGED_6MO'],
  ['last-reviewed-recent', 'LAST_REVIEWED_RECENT'],
]);

/**
 * Parses raw catalog signal strings (trimmed, case folded, `_` read as `-`) into distinct known signals in
 * first-seen order; unknown strings are dropped.
 */
export function parseTrustSignals(raw: readonly string[]): TrustSignal[] {
  const parsed = new Set<TrustSignal>();
  for (const text of raw) {
    const signal = SIGNALS.get(text.trim().toLowerCase().replaceAll('_', '-'));
    if (signal !== undefined) parsed.add(signal);
  }
  return [...parsed];
}
