import { describe, expect, it } from 'vitest';
import { EventStreamReader, type StreamEvent } from './http-link-events.ts';

/** Reads `chunks` (strings as UTF-8, or bytes) with a cap of `max`; what the sink heard. */
function read(chunks: (string | Uint8Array)[], max = 1024) {
  const events: StreamEvent[] = [];
  const retries: number[] = [];
  const oversized: number[] = [];
  const reader = new EventStreamReader(max, {
    event: (event) => events.push(event),
    retry: (ms) => retries.push(ms),
    oversized: (limit) => oversized.push(limit),
  });
  for (const chunk of chunks) reader.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
  return { events, retries, oversized, stopped: reader.stopped };
}

const message = (data: string, id?: string): StreamEvent => ({ type: 'message', data, id });

describe('EventStreamReader', () => {
  it.each([
    ['one event', ['data: {"a":1}\n\n'], [message('{"a":1}')]],
    ['data lines joined with LF', ['data: one\ndata: two\n\n'], [message('one\ntwo')]],
    ['CRLF line ends', ['data: x\r\n\r\n'], [message('x')]],
    ['CR line ends', ['data: x\r\r'], [message('x')]],
    ['mixed line ends in one chunk', ['data: a\r\ndata: b\rdata: c\n\r\n'], [message('a\nb\nc')]],
    ['a CRLF split across chunks', ['data: x\r', '\n\r', '\n'], [message('x')]],
    ['an event split byte by byte', [...'data: hé\n\n'].map((c) => c), [message('hé')]],
    [
      'a named event',
      ['event: endpoint\ndata: /messages\n\n'],
      [{ type: 'endpoint', data: '/messages', id: undefined }],
    ],
    ['no space after the colon', ['data:x\n\n'], [message('x')]],
    ['only one space removed', ['data:  x\n\n'], [message(' x')]],
    ['a comment', [': keep-alive\n\ndata: x\n\n'], [message('x')]],
    ['an event without data (not dispatched)', ['event: ping\n\n'], []],
    ['an empty data line (dispatched, empty)', ['id: 7\ndata:\n\n'], [message('', '7')]],
    [
      'the last id kept for later events',
      ['id: 1\ndata: a\n\ndata: b\n\n'],
      [message('a', '1'), message('b', '1')],
    ],
    ['an id with NUL ignored', ['id: a\0b\ndata: x\n\n'], [message('x')]],
    ['an unknown field ignored', ['foo: bar\ndata: x\n\n'], [message('x')]],
    ['a field name alone', ['data\n\n'], [message('')]],
    ['a byte order mark at the start', ['\ufeffdata: x\n\n'], [message('x')]],
    ['an unfinished event (not dispatched)', ['data: x\n'], []],
  ])('reads %s', (_name, chunks, expected) => {
    expect(read(chunks).events).toEqual(expected);
  });

  it('splits a multi-byte character across chunks without harm', () => {
    const bytes = Buffer.from('data: 日本\n\n');
    expect(read([bytes.subarray(0, 8), bytes.subarray(8)]).events).toEqual([message('日本')]);
  });

  it('reports retry advice that is a number, and nothing else', () => {
    expect(read(['retry: 2500\n\nretry: soon\n\nretry: 99999999999\n\n']).retries).toEqual([2500]);
  });

  it('stops once an event passes the cap, counting every line of the event', () => {
    const { events, oversized, stopped } = read(
      ['data: ok\n\n', `data: ${'a'.repeat(500)}\n`, `data: ${'b'.repeat(500)}\n`, 'data: late\n\n'],
      1000,
    );
    expect(events).toEqual([message('ok')]);
    expect(oversized).toEqual([1000]);
    expect(stopped).toBe(true);
  });

  it('stops on a line that never ends, whatever the chunks', () => {
    const reader = new EventStreamReader(4096, {
      event: () => {},
      oversized: () => {},
    });
    let pushed = 0;
    while (!reader.stopped && pushed < 1_000_000) {
      reader.push(Buffer.from('x'.repeat(1000)));
      pushed += 1000;
    }
    expect(reader.stopped).toBe(true);
    expect(pushed).toBeLessThanOrEqual(5000);
  });

  it('does not count comments and other fields toward an event (they are not kept)', () => {
    const keepAlives = Array.from({ length: 100 }, () => ': keep-alive\nevent: x\n');
    expect(read([...keepAlives, 'data: ok\n\n'], 64)).toMatchObject({
      events: [{ type: 'x', data: 'ok' }],
      oversized: [],
    });
  });

  it('accepts an event of exactly the cap and reads on', () => {
    // "data: " + 9 bytes + LF = 16 bytes.
    const { events, oversized } = read(['data: 123456789\n\ndata: next\n\n'], 16);
    expect(events).toEqual([message('123456789'), message('next')]);
    expect(oversized).toEqual([]);
  });

  it('drops everything after stop()', () => {
    const events: StreamEvent[] = [];
    const reader = new EventStreamReader(1024, { event: (event) => events.push(event), oversized: () => {} });
    reader.push(Buffer.from('data: a\n'));
    reader.stop();
    reader.push(Buffer.from('\ndata: b\n\n'));
    expect(events).toEqual([]);
  });
});
