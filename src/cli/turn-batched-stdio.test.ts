import { PassThrough, Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { TurnBatchedStdioServerTransport } from './turn-batched-stdio.ts';

function recordingStdout() {
  const writes: string[] = [];
  const stdout = new Writable({
    writev(chunks, callback) {
      writes.push(chunks.map((c) => String(c.chunk)).join(''));
      callback();
    },
    write(chunk, _encoding, callback) {
      writes.push(String(chunk));
      callback();
    },
  });
  return { stdout, writes };
}

describe('TurnBatchedStdioServerTransport', () => {
  it('sends the messages of one turn in one write, after the turn, each as its own line', async () => {
    const { stdout, writes } = recordingStdout();
    const transport = new TurnBatchedStdioServerTransport(new PassThrough(), stdout);
    await transport.start();
    const sent = [1, 2, 3].map((id) => transport.send({ jsonrpc: '2.0', id, result: {} }));
    expect(writes).toEqual([]);
    await Promise.all(sent);
    await new Promise((resolve) => setImmediate(resolve));
    expect(writes).toHaveLength(1);
    expect(
      writes[0]
        ?.trimEnd()
        .split('\n')
        .map((line) => JSON.parse(line) as { id: number }),
    ).toMatchObject([{ id: 1 }, { id: 2 }, { id: 3 }]);
    await transport.send({ jsonrpc: '2.0', id: 4, result: {} });
    await new Promise((resolve) => setImmediate(resolve));
    expect(writes).toHaveLength(2);
    await transport.close();
  });

  it('writes the answers of a turn before work that turn deferred with setImmediate', async () => {
    const { stdout, writes } = recordingStdout();
    const transport = new TurnBatchedStdioServerTransport(new PassThrough(), stdout);
    await transport.start();
    const seenByDeferred = await new Promise<number>((resolve) => {
      setImmediate(() => resolve(writes.length));
      void Promise.resolve()
        .then(() => transport.send({ jsonrpc: '2.0', id: 1, result: {} }))
        .then(() => transport.send({ jsonrpc: '2.0', id: 2, result: {} }));
    });
    expect(seenByDeferred).toBe(1);
    expect(writes[0]?.trimEnd().split('\n')).toHaveLength(2);
    await transport.close();
  });
});
