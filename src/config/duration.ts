/** Parses `250ms`, `30s`, `5m`, `1h` into milliseconds; throws on anything else. */
export function parseDuration(text: string): number {
  const match = /^([0-9]+)(ms|s|m|h)$/.exec(text);
  if (!match) throw new Error(`not a duration: ${JSON.stringify(text)} (use e.g. 500ms, 30s, 5m, 1h)`);
  const value = Number(match[1]);
  const unit = match[2] as 'ms' | 's' | 'm' | 'h';
  return value * { ms: 1, s: 1000, m: 60_000, h: 3_600_000 }[unit];
}
