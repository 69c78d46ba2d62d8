/** The governance events, each written once per distinct payload (a rebuild that changes nothing is silent). */
import type { EventType, NewEvent } from '../store/index.ts';

/** Emits an event of a type about a subject unless the same payload was the last one emitted for them. */
export type GovernanceEmit = (type: EventType, subject: string, payload: Record<string, unknown>) => void;

/** Where emitted events go. */
export interface EmitterDeps {
  recordEvent(event: NewEvent): void;
  now(): number;
  log(event: string, fields: Record<string, unknown>): void;
}

/** Creates the deduplicating emitter. */
export function createGovernanceEmitter(deps: EmitterDeps): GovernanceEmit {
  const lastEmitted = new Map<string, string>();
  return (type, subject, payload) => {
    const key = `${type}:${subject}`;
    const digest = JSON.stringify(payload);
    if (lastEmitted.get(key) === digest) return;
    lastEmitted.set(key, digest);
    deps.recordEvent({ type, at: deps.now(), subject, payload });
    deps.log(`risk.${type}`, { subject, ...payload });
  };
}
