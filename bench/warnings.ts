/**
 * Process warnings during the bench: captured and counted instead of printed one by one, so that a burst of
 * MaxListenersExceededWarning neither floods the table nor adds stderr writes to the measured calls.
 */

/** What was captured so far. */
export interface WarningLog {
  /** Count per warning name. */
  counts(): Record<string, number>;
  /** The first warning of a name (with its stack), if any. */
  first(name: string): Error | undefined;
  /** Stops capturing and puts Node's default printer back. */
  restore(): void;
}

/** Replaces the process warning printer with a counter; other warning kinds are still printed once each. */
export function captureWarnings(
  write: (line: string) => void = (line) => process.stderr.write(line),
): WarningLog {
  const previous = process.listeners('warning');
  const counts: Record<string, number> = {};
  const firsts = new Map<string, Error>();
  const onWarning = (warning: Error) => {
    counts[warning.name] = (counts[warning.name] ?? 0) + 1;
    if (!firsts.has(warning.name)) {
      firsts.set(warning.name, warning);
      write(`(bench) ${warning.name}: ${warning.message} (further ones counted, not printed)\n`);
    }
  };
  process.removeAllListeners('warning');
  process.on('warning', onWarning);
  return {
    counts: () => ({ ...counts }),
    first: (name) => firsts.get(name),
    restore() {
      process.off('warning', onWarning);
      for (const listener of previous) process.on('warning', listener as (warning: Error) => void);
    },
  };
}
