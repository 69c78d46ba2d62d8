/**
 * The audit writer of the call path. Records handed in during one turn of the event loop are made durable
 * together after it, and each caller's promise settles once its own record is durable.
 *
 * With a journal (a store on a file), durable means written to this process's journal: one write, no database
 * transaction on the call path. The journaled records move into the database in one transaction a little later
 * (`storeDelayMs`, or at once when `maxBatch` are waiting), and the journal is emptied after that commit. If the
 * process dies in between, the next process to open the audit log stores them from the journal.
 * Without a journal (`:memory:`), or when the journal cannot be written, each turn commits to the database.
 */
import type { AuditJournal, AuditRowInput } from '../store/index.ts';
import type { AuditLog, PreparedAuditRecord } from './audit-log.ts';
import type { AuditInput } from './record.ts';

/** Writes records asynchronously in batches. */
export interface AuditWriter {
  /** Resolves once the record is durable; rejects when this record could not be written. */
  write(input: AuditInput): Promise<void>;
  /** Moves every record written so far into the database; rejects when the database refuses them. */
  flush(): Promise<void>;
  /** Flushes, then closes the journal (kept on disk while it still holds records). */
  close(): Promise<void>;
}

/** Options of the writer. */
export interface AuditWriterOptions {
  /** This process's journal; without one every turn commits to the database. */
  journal?: AuditJournal;
  /** Runs the end-of-turn step (default: process.nextTick, once the turn's promise continuations have run). */
  schedule?: (run: () => void) => void;
  /** How long journaled records wait before they move into the database, in ms (default 50). */
  storeDelayMs?: number;
  /** At most this many records per transaction (default 256); this many waiting are stored at once. */
  maxBatch?: number;
  /** Told when journaled records could not move into the database; they stay journaled and are retried. */
  onStoreError?: (error: unknown) => void;
}

interface Pending {
  input: AuditInput;
  resolve(): void;
  reject(error: unknown): void;
}

/** A failed move into the database is retried after this long, in ms. */
const STORE_RETRY_MS = 1000;

/** Creates a batching writer over an audit log. */
export function createAuditWriter(
  log: Pick<AuditLog, 'prepare' | 'appendPrepared'>,
  options: AuditWriterOptions = {},
): AuditWriter {
  const { journal } = options;
  const schedule = options.schedule ?? ((run: () => void) => process.nextTick(run));
  const storeDelayMs = options.storeDelayMs ?? 50;
  const maxBatch = options.maxBatch ?? 256;
  let queue: Pending[] = [];
  let scheduled = false;
  // Only the rows wait here (not the records they were made from), so less is kept alive until they are stored.
  let journaled: AuditRowInput[] = [];
  let storeTimer: NodeJS.Timeout | undefined;

  const commit = (batch: readonly [Pending, PreparedAuditRecord][]) => {
    try {
      for (let i = 0; i < batch.length; i += maxBatch) {
        log.appendPrepared(batch.slice(i, i + maxBatch).map(([, prepared]) => prepared.row));
      }
      for (const [pending] of batch) pending.resolve();
    } catch {
      // One bad record must not take the others down: write them one by one, so only it fails. Earlier chunks
      // of this batch may already be stored, hence skipExisting.
      for (const [pending, prepared] of batch) {
        try {
          log.appendPrepared([prepared.row], { skipExisting: true });
          pending.resolve();
        } catch (error) {
          pending.reject(error);
        }
      }
    }
  };

  const storeJournaled = () => {
    if (storeTimer) clearTimeout(storeTimer);
    storeTimer = undefined;
    if (!journal || journaled.length === 0) return;
    while (journaled.length > 0) {
      log.appendPrepared(journaled.slice(0, maxBatch), { skipExisting: true });
      journaled = journaled.slice(maxBatch);
    }
    journal.clear();
  };

  const storeLater = (delayMs: number) => {
    storeTimer ??= setTimeout(() => {
      storeTimer = undefined;
      try {
        storeJournaled();
      } catch (error) {
        options.onStoreError?.(error);
        storeLater(STORE_RETRY_MS);
      }
    }, delayMs).unref();
  };

  const endTurn = () => {
    scheduled = false;
    const batch = queue;
    queue = [];
    const ready: [Pending, PreparedAuditRecord][] = [];
    for (const pending of batch) {
      try {
        ready.push([pending, log.prepare(pending.input)]);
      } catch (error) {
        pending.reject(error);
      }
    }
    if (ready.length === 0) return;
    if (!journal) return commit(ready);
    try {
      journal.append(ready.map(([, prepared]) => prepared.row));
    } catch {
      // The journal cannot be written (disk full, removed folder): the database is the record of these calls.
      return commit(ready);
    }
    for (const [pending, prepared] of ready) {
      journaled.push(prepared.row);
      pending.resolve();
    }
    if (journaled.length >= maxBatch && storeTimer) {
      clearTimeout(storeTimer);
      storeTimer = undefined;
    }
    storeLater(journaled.length >= maxBatch ? 0 : storeDelayMs);
  };

  const flush = () => {
    endTurn();
    storeJournaled();
  };

  return {
    write(input) {
      return new Promise<void>((resolve, reject) => {
        queue.push({ input, resolve, reject });
        if (!scheduled) {
          scheduled = true;
          schedule(endTurn);
        }
      });
    },
    async flush() {
      flush();
    },
    async close() {
      try {
        flush();
      } finally {
        journal?.close();
      }
    },
  };
}
