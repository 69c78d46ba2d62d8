/** Structured JSON logs: one line per event on stderr, every string masked, levels filtered. */
import type { Masker } from '../secrets/index.ts';
import { stderrLogSink } from './log-sink.ts';

/** Log levels in increasing severity. */
export type LogLevel = 'debug' | 'info' | 'warn' | 'error' | 'silent';

const SEVERITY: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 };

/** A structured logger. */
export interface Logger {
  log(event: string, fields?: Record<string, unknown>, level?: Exclude<LogLevel, 'silent'>): void;
  /** A logger whose masker also knows `secrets`. */
  withSecrets(secrets: Iterable<string>): Logger;
}

/** Options of the logger. */
export interface LoggerOptions {
  level: LogLevel;
  masker: Masker;
  /** Where lines go (default: process.stderr, batched for a few milliseconds and flushed on exit). */
  write?: (line: string) => void;
  now?: () => Date;
}

const ENVELOPE_KEYS = new Set(['time', 'level', 'event']);

// More distinct event names than the code logs: the cache of their texts starts over.
const MAX_EVENT_NAMES = 1000;

// A field named like an envelope key (a risk `level` such as "L1") must not replace the log level or event
// name that log processors filter on; it is kept under `field.<key>`.
function envelopeSafe(fields: Record<string, unknown>): Record<string, unknown> {
  if (!Object.hasOwn(fields, 'time') && !Object.hasOwn(fields, 'level') && !Object.hasOwn(fields, 'event'))
    return fields;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(fields))
    out[ENVELOPE_KEYS.has(key) ? `field.${key}` : key] = value;
  return out;
}

/** Creates a JSON-lines logger. */
export function createLogger(options: LoggerOptions): Logger {
  const write = options.write ?? stderrLogSink().write;
  const threshold = SEVERITY[options.level];
  const { masker } = options;
  // The envelope is written as text before the fields' JSON (no merged copy of every record); its keys are
  // masked like any string, once.
  const key = (name: string) => `${JSON.stringify(masker.mask(name))}:`;
  const [timeKey, levelKey, eventKey] = [key('time'), key('level'), key('event')];
  const text = (value: string) => JSON.stringify(masker.mask(value));
  const levels = new Map((['debug', 'info', 'warn', 'error'] as const).map((l) => [l, text(l)]));
  // Event names are the code's constants: each is masked and quoted once (the cache starts over past a bound,
  // should a caller ever make names from data).
  const events = new Map<string, string>();
  const eventText = (event: string): string => {
    let made = events.get(event);
    if (made === undefined) {
      made = text(event);
      if (events.size >= MAX_EVENT_NAMES) events.clear();
      events.set(event, made);
    }
    return made;
  };
  // Lines of one millisecond share its time text (a burst of calls logs many lines per millisecond), and
  // lines of one second its ISO text up to the milliseconds: toISOString costs more than the rest of a line's
  // envelope, and a gateway under load logs in a new millisecond nearly every line.
  let lastMs = Number.NaN;
  let lastTime = '';
  let lastSecond = Number.NaN;
  let secondPrefix = '';
  const isoOf = (ms: number): string => {
    const second = Math.floor(ms / 1000);
    if (second !== lastSecond) {
      lastSecond = second;
      const iso = new Date(second * 1000).toISOString();
      // `….000Z`: the prefix is everything before the three millisecond digits and the `Z`, whatever the year's width.
      secondPrefix = iso.slice(0, -4);
    }
    const milli = ms - second * 1000;
    return `${secondPrefix}${milli < 10 ? '00' : milli < 100 ? '0' : ''}${milli}Z`;
  };
  const { now } = options;
  const timeText = now
    ? () => text(now().toISOString())
    : () => {
        const ms = Date.now();
        if (ms !== lastMs) {
          lastMs = ms;
          lastTime = text(isoOf(ms));
        }
        return lastTime;
      };
  return {
    log(event, fields = {}, level = 'info') {
      if (SEVERITY[level] < threshold) return;
      const envelope = `{${timeKey}${timeText()},${levelKey}${levels.get(level) ?? text(level)},${eventKey}${eventText(event)}`;
      let body: string;
      try {
        body = JSON.stringify(masker.maskDeep(envelopeSafe(fields)));
      } catch {
        body = JSON.stringify({ note: 'fields were not serializable' });
      }
      write(body === '{}' ? `${envelope}}\n` : `${envelope},${body.slice(1)}\n`);
    },
    withSecrets(secrets) {
      return createLogger({ ...options, masker: options.masker.with(secrets) });
    },
  };
}
