/**
 * The record stage, the last stage of the call pipeline (docs/architecture.md): the audit record, the
 * `ApprovalDecided` event of a call a person answered, the upstream's "last used" time, and telemetry. It never
 * throws: a store failure is logged (`audit.write_failed`) and the call's answer stands.
 */
import type { AuditWriter } from '../audit/index.ts';
import type { EventStore, UpstreamStore } from '../store/index.ts';
import type { Logger, Telemetry } from '../telemetry/index.ts';
import { toAuditInput } from './audit-record.ts';
import type { CallRecord, RecordStage } from './pipeline.ts';

/** "Last used" feeds a 90-day recency window: one write per upstream per minute is precise enough. */
export const LAST_USED_INTERVAL_MS = 60_000;

/** What the record stage writes to. */
export interface RecordStageDeps {
  audit: Pick<AuditWriter, 'write'>;
  events: Pick<EventStore, 'append'>;
  upstreams: Pick<UpstreamStore, 'recordUsed'>;
  telemetry: Pick<Telemetry, 'toolFinished' | 'currentTraceId'>;
  /** The upstream of a withheld tool, for the record of a call to a name that resolved to nothing. */
  withheldUpstream: (alias: string) => string | undefined;
  now: () => number;
  logger: Pick<Logger, 'log'>;
}

/** Creates the record stage. */
export function createRecordStage(deps: RecordStageDeps): RecordStage {
  const markUsed = createLastUsedThrottle(deps.upstreams, deps.now);
  return async (record) => {
    const entry = toAuditInput(
      record,
      deps.telemetry.currentTraceId(record.caller.trace),
      deps.withheldUpstream,
    );
    try {
      await deps.audit.write(entry);
      // A relayed round's row is one of the call's rows: the call's end reports the approval, once.
      if (record.approval?.decision === 'ask' && record.outcome !== 'INPUT_REQUIRED') {
        deps.events.append({
          type: 'ApprovalDecided',
          at: deps.now(),
          subject: record.alias,
          payload: { principal: record.caller.principal.id, outcome: record.outcome, ...record.approval },
        });
      }
      if (record.tool?.upstream && record.outcome === 'OK') markUsed(record.tool.upstream);
    } catch (error) {
      deps.logger.log('audit.write_failed', { alias: record.alias, error: messageOf(error) }, 'error');
    }
    // Metrics and the call's log line count the call once, when it ends (its rounds' spans say input_required).
    // The outcome was just checked: the record itself is the facts (no copy per call).
    if (record.outcome !== 'INPUT_REQUIRED')
      deps.telemetry.toolFinished(record as CallRecord & { outcome: 'OK' | 'ERROR' });
  };
}

/**
 * Records an upstream as used at most once per LAST_USED_INTERVAL_MS, which keeps a database write off the hot
 * path of every call.
 */
export function createLastUsedThrottle(
  upstreams: Pick<UpstreamStore, 'recordUsed'>,
  now: () => number,
): (upstream: string) => void {
  const lastWrite = new Map<string, number>();
  return (upstream) => {
    const at = now();
    const previous = lastWrite.get(upstream);
    if (previous !== undefined && at - previous < LAST_USED_INTERVAL_MS) return;
    lastWrite.set(upstream, at);
    upstreams.recordUsed(upstream, at);
  };
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
