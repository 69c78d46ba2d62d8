/**
 * Governance events (what the guards record in the event store) as telemetry: a `PoisoningHit` becomes a
 * poisoning-hit span event and log line, a `HashLedgerMismatch` a ledger-mismatch one. Payloads are read with
 * guards, never casts: an event recorded by an older version or another guard reports what it has.
 */
import type { LedgerMismatchFacts, PoisoningHitFacts } from './facts.ts';
import type { Telemetry } from './telemetry.ts';

/** A recorded governance event (the store's NewEvent fits). */
export interface GovernanceEventFacts {
  type: string;
  subject?: string | undefined;
  payload: unknown;
}

/** Reports one governance event to telemetry; other event types are not telemetry's business. */
export function reportGovernanceEvent(
  telemetry: Pick<Telemetry, 'poisoningHit' | 'hashLedgerMismatch'>,
  event: GovernanceEventFacts,
): void {
  if (event.type === 'PoisoningHit') telemetry.poisoningHit(poisoningHitOf(event));
  else if (event.type === 'HashLedgerMismatch') telemetry.hashLedgerMismatch(ledgerMismatchOf(event));
}

/**
 * The poisoning hit of a `PoisoningHit` event: pattern ids and fields in first-seen order. A local tool's event
 * carries only a match count, so it reports no patterns.
 */
export function poisoningHitOf(event: GovernanceEventFacts): PoisoningHitFacts {
  const payload = fieldsOf(event.payload);
  const patterns = new Set<string>();
  const fields = new Set<string>();
  const matches = payload.get('matches');
  for (const match of Array.isArray(matches) ? matches : []) {
    const found = fieldsOf(match);
    const patternId = stringOf(found.get('patternId'));
    const fieldPath = stringOf(found.get('fieldPath'));
    if (patternId !== undefined) patterns.add(patternId);
    if (fieldPath !== undefined) fields.add(fieldPath);
  }
  const upstream = stringOf(payload.get('upstream'));
  return {
    alias: event.subject,
    ...(upstream === undefined ? {} : { upstream }),
    tool: stringOf(payload.get('tool')) ?? stringOf(payload.get('local')) ?? event.subject ?? '',
    patterns: [...patterns],
    fields: [...fields],
  };
}

/** The mismatch of a `HashLedgerMismatch` event; the tool is withheld until re-reviewed. */
export function ledgerMismatchOf(event: GovernanceEventFacts): LedgerMismatchFacts {
  const payload = fieldsOf(event.payload);
  const previousHash = stringOf(payload.get('previousHash'));
  return {
    upstream: stringOf(payload.get('upstream')) ?? '',
    // A prompt, resource or instructions has no tool: its subject says `<kind>:<upstream>::<name>`.
    tool: stringOf(payload.get('tool')) ?? event.subject ?? '',
    ...(previousHash === undefined ? {} : { previousHash }),
    hash: stringOf(payload.get('currentHash')) ?? '',
    status: 'AWAITING_REREVIEW',
  };
}

function fieldsOf(value: unknown): ReadonlyMap<string, unknown> {
  return new Map(typeof value === 'object' && value !== null ? Object.entries(value) : []);
}

function stringOf(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}
