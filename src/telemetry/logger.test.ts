import { describe, expect, it, vi } from 'vitest';
import { createMasker } from '../secrets/index.ts';
import { createLogger, type LogLevel } from './logger.ts';

function capture(level: LogLevel, secrets: string[] = []) {
  const lines: string[] = [];
  const logger = createLogger({
    level,
    masker: createMasker(secrets),
    write: (line) => lines.push(line),
    now: () => new Date('2026-01-02T03:04:05.000Z'),
  });
  return { logger, records: () => lines.map((line) => JSON.parse(line) as Record<string, unknown>) };
}

describe('createLogger', () => {
  it.each([
    ['debug', ['debug', 'info', 'warn', 'error']],
    ['info', ['info', 'warn', 'error']],
    ['warn', ['warn', 'error']],
    ['error', ['error']],
    ['silent', []],
  ] as const)('at %s writes %j', (threshold, written) => {
    const { logger, records } = capture(threshold);
    for (const level of ['debug', 'info', 'warn', 'error'] as const) logger.log(`e.${level}`, {}, level);
    expect(records().map((r) => r.level)).toEqual(written);
  });

  it('writes one JSON line with time, level and event first, masking every string', () => {
    const { logger, records } = capture('info', ['hunter22']);
    logger.log('upstream.error', { message: 'auth hunter22 refused', nested: { hunter22: ['x hunter22'] } });
    expect(records()).toEqual([
      {
        time: '2026-01-02T03:04:05.000Z',
        level: 'info',
        event: 'upstream.error',
        message: 'auth *** refused',
        nested: { '***': ['x ***'] },
      },
    ]);
  });

  it('keeps a field named like an envelope key from replacing the level or event', () => {
    const { logger, records } = capture('info');
    logger.log('risk.ServerRiskComputed', { level: 'L1', event: 'other', time: 'then', subject: 'every' });
    expect(records()[0]).toEqual({
      time: '2026-01-02T03:04:05.000Z',
      level: 'info',
      event: 'risk.ServerRiskComputed',
      'field.level': 'L1',
      'field.event': 'other',
      'field.time': 'then',
      subject: 'every',
    });
  });

  it('withSecrets masks the added values too', () => {
    const { logger, records } = capture('info', ['first-secret']);
    logger.withSecrets(['second-secret']).log('x', { a: 'first-secret second-secret' });
    expect(records()[0]?.a).toBe('*** ***');
  });

  it('masks an event name each time it is logged, also after withSecrets learns a value in it', () => {
    const { logger, records } = capture('info', ['hunter22']);
    logger.log('evt.hunter22.first-secret');
    logger.log('evt.hunter22.first-secret');
    logger.withSecrets(['first-secret']).log('evt.hunter22.first-secret');
    expect(records().map((r) => r.event)).toEqual([
      'evt.***.first-secret',
      'evt.***.first-secret',
      'evt.***.***',
    ]);
  });

  it('survives fields that cannot be serialized', () => {
    const { logger, records } = capture('info');
    logger.log('x', { big: 10n });
    expect(records()[0]).toMatchObject({ event: 'x', note: 'fields were not serializable' });
  });

  it('stamps each line with the time it was logged by default', () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      const lines: string[] = [];
      const logger = createLogger({
        level: 'info',
        masker: createMasker(),
        write: (line) => lines.push(line),
      });
      vi.setSystemTime(new Date('2026-01-02T03:04:05.006Z'));
      logger.log('a');
      logger.log('b');
      vi.setSystemTime(new Date('2026-01-02T03:04:05.007Z'));
      logger.log('c');
      expect(lines.map((line) => (JSON.parse(line) as { time: string }).time)).toEqual([
        '2026-01-02T03:04:05.006Z',
        '2026-01-02T03:04:05.006Z',
        '2026-01-02T03:04:05.007Z',
      ]);
    } finally {
      vi.useRealTimers();
    }
  });

  it('writes the time as toISOString does, across seconds, padded milliseconds and far years, masked', () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      const times = [
        '2026-01-02T03:04:05.999Z',
        '2026-01-02T03:04:06.000Z',
        '2026-01-02T03:04:06.005Z',
        '2026-01-02T03:04:06.050Z',
        '2026-01-02T03:04:06.500Z',
        '2026-01-02T03:04:05.999Z',
        '1969-12-31T23:59:59.001Z',
        '+010000-01-01T00:00:00.042Z',
      ].map((iso) => new Date(iso).getTime());
      const written: string[] = [];
      const logger = createLogger({ level: 'info', masker: createMasker(), write: (l) => written.push(l) });
      // A secret made of time characters is masked in the time too.
      const secretive = createLogger({
        level: 'info',
        masker: createMasker(['06.05']),
        write: (l) => written.push(l),
      });
      for (const ms of times) {
        vi.setSystemTime(ms);
        logger.log('t');
        secretive.log('t');
      }
      expect(written.map((line) => (JSON.parse(line) as { time: string }).time)).toEqual(
        times.flatMap((ms) => {
          const iso = new Date(ms).toISOString();
          return [iso, iso.split('06.05').join('***')];
        }),
      );
    } finally {
      vi.useRealTimers();
    }
  });
});
