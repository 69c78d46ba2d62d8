/** The last lines a stdio child wrote to stderr, bounded in lines and bytes, for the operator's diagnosis. */

/** At most this many lines are kept. */
export const STDERR_TAIL_LINES = 20;
/** At most this many characters are kept in all (older lines are dropped first). */
export const STDERR_TAIL_CHARS = 4_096;
/** A longer line is cut to this many characters. */
const MAX_LINE_CHARS = 1_024;

/** A bounded tail of stderr lines. */
export interface StderrTail {
  push(line: string): void;
  /** A copy of the kept lines, oldest first. */
  lines(): string[];
}

/** Creates an empty tail. */
export function createStderrTail(): StderrTail {
  const kept: string[] = [];
  let chars = 0;
  return {
    push(line) {
      const cut = line.length > MAX_LINE_CHARS ? `${line.slice(0, MAX_LINE_CHARS)}…` : line;
      kept.push(cut);
      chars += cut.length;
      while (kept.length > STDERR_TAIL_LINES || (chars > STDERR_TAIL_CHARS && kept.length > 1)) {
        chars -= (kept.shift() as string).length;
      }
    },
    lines: () => [...kept],
  };
}
