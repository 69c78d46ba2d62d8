/**
 * Where log lines go by default: stderr, batched. Lines are collected for a few milliseconds and leave in one
 * write (a pipe write costs a context switch, the hot path logs twice per call, and a write just before an
 * answer would delay it), and whatever is still buffered is written synchronously when the process exits.
 * Only a SIGKILL can lose the last few milliseconds of lines; the audit log, not the log stream, is the durable
 * record of a call.
 */

/** A line sink with an explicit flush. */
export interface LogSink {
  write(line: string): void;
  /** Writes everything buffered now. */
  flush(): void;
}

/** Above this many buffered characters a flush happens at once instead of on the timer. */
const FLUSH_AT_CHARS = 64 * 1024;
/** How long the first buffered line waits for others before they are written together. */
export const LOG_FLUSH_DELAY_MS = 20;

/** A sink that batches lines into `write` (process.stderr by default), flushed LOG_FLUSH_DELAY_MS after the first. */
export function createBatchedLogSink(
  write: (text: string) => void = (text) => process.stderr.write(text),
  schedule: (flush: () => void) => void = (flush) => setTimeout(flush, LOG_FLUSH_DELAY_MS).unref(),
): LogSink {
  let pending: string[] = [];
  let chars = 0;
  let scheduled = false;
  const flush = () => {
    scheduled = false;
    if (pending.length === 0) return;
    const text = pending.join('');
    pending = [];
    chars = 0;
    write(text);
  };
  return {
    write(line) {
      pending.push(line);
      chars += line.length;
      if (chars >= FLUSH_AT_CHARS) flush();
      else if (!scheduled) {
        scheduled = true;
        schedule(flush);
      }
    },
    flush,
  };
}

let processSink: LogSink | undefined;

/** The process-wide stderr sink, flushed on exit (created on first use). */
export function stderrLogSink(): LogSink {
  if (!processSink) {
    const sink = createBatchedLogSink();
    process.on('exit', () => sink.flush());
    processSink = sink;
  }
  return processSink;
}
