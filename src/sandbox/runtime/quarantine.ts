/**
 * Quarantine of tools whose isolates keep failing catastrophically (a hard V8 out-of-memory loses the
 * isolate's thread and heap for good). One failure only costs the isolate: the next call gets a fresh one.
 * A tool is quarantined after QUARANTINE_AFTER_FAILURES such failures within QUARANTINE_WINDOW_MS, until an
 * operator lifts it or its spec changes.
 */

/** Catastrophic failures within the window that quarantine a tool. */
export const QUARANTINE_AFTER_FAILURES = 3;
/** The window in which failures are counted, in milliseconds. */
export const QUARANTINE_WINDOW_MS = 10 * 60 * 1000;

/** A quarantined tool, as operators see it. */
export interface QuarantineEntry {
  toolId: string;
  /** Epoch milliseconds. */
  since: number;
  reason: string;
}

/** What one recorded failure did. */
export interface FailureVerdict {
  failures: number;
  quarantined: boolean;
}

/** The quarantine state of one runner. */
export interface QuarantineBook {
  recordFailure(toolId: string): FailureVerdict;
  /** The reason a tool is quarantined, or null. */
  reasonFor(toolId: string): string | null;
  /** Lifts a quarantine and forgets the tool's failures; false when the tool was not quarantined. */
  lift(toolId: string): boolean;
  /** Forgets everything about a tool (its spec changed or was removed). */
  forget(toolId: string): void;
  list(): QuarantineEntry[];
}

/** Builds an empty book; `now` is the clock (epoch milliseconds). */
export function createQuarantineBook(now: () => number = Date.now): QuarantineBook {
  const failures = new Map<string, number[]>();
  const quarantined = new Map<string, QuarantineEntry>();
  return {
    recordFailure: (toolId) => {
      const at = now();
      const recent = (failures.get(toolId) ?? []).filter((time) => at - time < QUARANTINE_WINDOW_MS);
      recent.push(at);
      failures.set(toolId, recent);
      if (recent.length >= QUARANTINE_AFTER_FAILURES && !quarantined.has(toolId)) {
        const minutes = Math.round(QUARANTINE_WINDOW_MS / 60_000);
        quarantined.set(toolId, {
          toolId,
          since: at,
          reason: `quarantined after ${recent.length} catastrophic out-of-memory errors in its isolate within ${minutes} minutes`,
        });
      }
      return { failures: recent.length, quarantined: quarantined.has(toolId) };
    },
    reasonFor: (toolId) => quarantined.get(toolId)?.reason ?? null,
    lift: (toolId) => {
      failures.delete(toolId);
      return quarantined.delete(toolId);
    },
    forget: (toolId) => {
      failures.delete(toolId);
      quarantined.delete(toolId);
    },
    list: () => [...quarantined.values()],
  };
}
