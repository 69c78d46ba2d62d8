/**
 * Group commit for the call path: records handed in during one turn of the event loop are written in one
 * transaction after it, and each caller's promise settles once its own record is durable. Under concurrency a
 * turn often finishes several calls, so they share one commit; a lone call waits only for the end of its turn.
 */
import type { AuditLog } from './audit-log.ts';
import type { AuditEntry, AuditInput } from './record.ts';

/** Writes records asynchronously in batches. */
export interface AuditWriter {
  /** Resolves with the stored entry once it is durable; rejects when this record could not be written. */
  write(input: AuditInput): Promise<AuditEntry>;
  /** Writes everything queued now (also what `close` does); resolves when it is durable. */
  flush(): Promise<void>;
}

/** Options of the writer. */
export interface AuditWriterOptions {
  /** Runs `flush` after the current turn (default: setImmediate). */
  schedule?: (flush: () => void) => void;
  /** At most this many records per transaction (default 256); more start another batch at once. */
  maxBatch?: number;
}

interface Pending {
  input: AuditInput;
  resolve(entry: AuditEntry): void;
  reject(error: unknown): void;
}

/** Creates a group-committing writer over an audit log. */
export function createAuditWriter(
  log: Pick<AuditLog, 'appendMany'>,
  options: AuditWriterOptions = {},
): AuditWriter {
  const schedule = options.schedule ?? ((flush: () => void) => setImmediate(flush));
  const maxBatch = options.maxBatch ?? 256;
  let queue: Pending[] = [];
  let scheduled = false;

  const commit = (batch: Pending[]) => {
    try {
      const entries = log.appendMany(batch.map((p) => p.input));
      batch.forEach((p, i) => p.resolve(entries[i] as AuditEntry));
    } catch {
      // One bad record must not take the others down: write them one by one, so only it fails.
      for (const p of batch) {
        try {
          p.resolve(log.appendMany([p.input])[0] as AuditEntry);
        } catch (error) {
          p.reject(error);
        }
      }
    }
  };

  const drain = () => {
    scheduled = false;
    while (queue.length > 0) {
      const batch = queue.length <= maxBatch ? queue : queue.slice(0, maxBatch);
      queue = queue.length <= maxBatch ? [] : queue.slice(maxBatch);
      commit(batch);
    }
  };

  return {
    write(input) {
      return new Promise<AuditEntry>((resolve, reject) => {
        queue.push({ input, resolve, reject });
        if (!scheduled) {
          scheduled = true;
          schedule(drain);
        }
      });
    },
    flush() {
      drain();
      return Promise.resolve();
    },
  };
}
