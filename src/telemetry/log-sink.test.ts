import { describe, expect, it } from 'vitest';
import { LOG_FLUSH_DELAY_MS, createBatchedLogSink } from './log-sink.ts';

function manual() {
  const writes: string[] = [];
  const turns: (() => void)[] = [];
  const sink = createBatchedLogSink(
    (text) => writes.push(text),
    (flush) => turns.push(flush),
  );
  const endTurn = () => turns.splice(0).forEach((flush) => flush());
  return { sink, writes, turns, endTurn };
}

describe('createBatchedLogSink', () => {
  it('writes the lines of one turn once, after the turn, in order', () => {
    const { sink, writes, turns, endTurn } = manual();
    sink.write('a\n');
    sink.write('b\n');
    expect(writes).toEqual([]);
    expect(turns).toHaveLength(1);
    endTurn();
    expect(writes).toEqual(['a\nb\n']);
    sink.write('c\n');
    endTurn();
    expect(writes).toEqual(['a\nb\n', 'c\n']);
  });

  it('writes at once when the buffer passes 64 KiB, and flush() empties it on demand', () => {
    const { sink, writes, endTurn } = manual();
    const big = `${'x'.repeat(64 * 1024)}\n`;
    sink.write('small\n');
    sink.write(big);
    expect(writes).toEqual([`small\n${big}`]);
    sink.write('tail\n');
    sink.flush();
    expect(writes.at(-1)).toBe('tail\n');
    endTurn();
    expect(writes).toHaveLength(2);
  });

  it('with the default schedule, lines reach the writer together a few milliseconds later', async () => {
    const writes: string[] = [];
    const sink = createBatchedLogSink((text) => writes.push(text));
    sink.write('one\n');
    sink.write('two\n');
    expect(writes).toEqual([]);
    await new Promise((resolve) => setImmediate(resolve));
    expect(writes).toEqual([]);
    await new Promise((resolve) => setTimeout(resolve, LOG_FLUSH_DELAY_MS + 30));
    expect(writes).toEqual(['one\ntwo\n']);
  });
});
