/** Verification of the audit log's hash chain: finds edited, deleted and reordered rows. */
import type { AuditRow, Store } from '../store/index.ts';
import { GENESIS_DIGEST, linkDigest } from './chain.ts';

/** What went wrong at the first bad row; `rewritten`: a consistent chain that disagrees with a trusted anchor. */
export type AuditChainProblem = 'edited' | 'deleted' | 'reordered' | 'rewritten';

/** A chain position recorded somewhere the gateway host cannot write: the row at `seq` had `digest`. */
export interface AuditAnchor {
  seq: number;
  digest: string;
}

/** The verdict of verifyAuditChain. */
export type AuditChainVerdict =
  | { ok: true; rows: number; headSeq: number; headDigest: string | null }
  | {
      ok: false;
      /** The id of the first bad row; null when the newest rows were deleted and no row remains after the gap. */
      firstBadId: string | null;
      /** The seq at which the problem shows. */
      seq: number;
      problem: AuditChainProblem;
      /** One sentence a person can act on. */
      detail: string;
    };

const BATCH = 1000;

/** Reads an anchor written as `SEQ:DIGEST` (what `portcullis audit verify` prints as the head); undefined if not one. */
export function parseAuditAnchor(text: string): AuditAnchor | undefined {
  const match = /^([1-9][0-9]{0,15}):([0-9a-fA-F]{64})$/.exec(text.trim());
  return match ? { seq: Number(match[1]), digest: (match[2] as string).toLowerCase() } : undefined;
}

/**
 * Walks the whole log in seq order and checks every row: its digest against its own content and its link to the
 * row before it, then the newest row against the recorded chain head, and the rows at the given anchors against
 * their trusted digests (which catches a chain rewritten from some row on, head included). Stops at the first
 * problem.
 */
export function verifyAuditChain(store: Store, anchors: readonly AuditAnchor[] = []): AuditChainVerdict {
  const trusted = new Map(anchors.map((a) => [a.seq, a.digest.toLowerCase()]));
  let previous: AuditRow | undefined;
  let rows = 0;
  for (;;) {
    const batch = store.audit.scan(previous?.seq ?? 0, BATCH);
    for (const row of batch) {
      const bad = checkRow(store, row, previous);
      if (bad) return bad;
      const anchored = trusted.get(row.seq);
      if (anchored !== undefined && anchored !== row.digest) {
        return fail(
          row,
          'rewritten',
          `its digest is not the anchored ${anchored}: the log was rewritten at or before this row`,
        );
      }
      previous = row;
      rows += 1;
    }
    if (batch.length < BATCH) break;
  }
  const beyond = anchors.filter((a) => a.seq > (previous?.seq ?? 0)).sort((a, b) => a.seq - b.seq)[0];
  if (beyond) {
    return {
      ok: false,
      firstBadId: null,
      seq: beyond.seq,
      problem: 'deleted',
      detail: `the log ends at seq ${previous?.seq ?? 0} but an anchor names seq ${beyond.seq}: rows were deleted`,
    };
  }
  const head = store.audit.head();
  if (!head) {
    return previous
      ? fail(previous, 'edited', 'rows exist but the chain head is missing')
      : { ok: true, rows, headSeq: 0, headDigest: null };
  }
  if (!previous || previous.seq < head.seq) {
    return {
      ok: false,
      firstBadId: null,
      seq: head.seq,
      problem: 'deleted',
      detail: `the newest rows were deleted: the log ends at seq ${previous?.seq ?? 0} but the chain head is at seq ${head.seq}`,
    };
  }
  if (previous.seq > head.seq || previous.digest !== head.digest) {
    return fail(previous, 'edited', 'the newest row does not match the recorded chain head');
  }
  return { ok: true, rows, headSeq: head.seq, headDigest: head.digest };
}

function checkRow(
  store: Store,
  row: AuditRow,
  previous: AuditRow | undefined,
): AuditChainVerdict | undefined {
  if (linkDigest(row.prevDigest, row.record) !== row.digest) {
    return fail(row, 'edited', 'its content no longer matches its digest');
  }
  const mismatch = columnMismatch(row);
  if (mismatch) return fail(row, 'edited', `its ${mismatch} column no longer matches the record`);
  const expected = previous?.digest ?? GENESIS_DIGEST;
  if (row.prevDigest === expected) return undefined;
  const expectedSeq = (previous?.seq ?? 0) + 1;
  if (row.seq !== expectedSeq) {
    return fail(
      row,
      'deleted',
      `rows before it are missing (seq jumps from ${expectedSeq - 1} to ${row.seq})`,
    );
  }
  const linked = store.audit.findByDigest(row.prevDigest);
  if (linked)
    return fail(row, 'reordered', `it chains to the row at seq ${linked.seq}, not to the one before it`);
  // No gap in seq and no row carries the digest it chains to: the row before it was rewritten, digest included.
  return previous
    ? fail(previous, 'edited', 'its digest was rewritten, so the next row no longer chains to it')
    : fail(row, 'edited', 'the first row does not start from the genesis digest');
}

function columnMismatch(row: AuditRow): string | undefined {
  let record: Record<string, unknown>;
  try {
    record = JSON.parse(row.record) as Record<string, unknown>;
  } catch {
    // Unparseable stored text is itself the mismatch, reported as the `record` column.
    return 'record';
  }
  const approval = record['approval'] as Record<string, unknown> | undefined;
  const expected: [string, unknown, unknown][] = [
    ['id', row.id, record['id']],
    ['time', row.time, record['time']],
    ['principal', row.principal, record['principal']],
    ['alias', row.alias, record['alias']],
    ['outcome', row.outcome, record['outcome']],
    ['decision', row.decision, approval?.['decision']],
    ['time_ms', row.timeMs, Date.parse(String(record['time']))],
  ];
  return expected.find(([, column, value]) => column !== value)?.[0];
}

function fail(row: AuditRow, problem: AuditChainProblem, why: string): AuditChainVerdict {
  return {
    ok: false,
    firstBadId: row.id,
    seq: row.seq,
    problem,
    detail: `row ${row.id} (seq ${row.seq}): ${why}`,
  };
}
