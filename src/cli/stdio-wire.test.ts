import { PassThrough, Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { StdioWire } from './stdio-wire.ts';

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

describe('StdioWire', () => {
  it('sends the messages of one turn in one write, after the turn, each as its own line', async () => {
    const { stdout, writes } = recordingStdout();
    const transport = new StdioWire(new PassThrough(), stdout);
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
    const transport = new StdioWire(new PassThrough(), stdout);
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

  it('reads lines split across chunks, several in one chunk, CRLF endings, and skips what is not JSON', async () => {
    const stdin = new PassThrough();
    const transport = new StdioWire(stdin, recordingStdout().stdout);
    const received: unknown[] = [];
    const errors: string[] = [];
    transport.onmessage = (message) => received.push(message);
    transport.onerror = (error) => errors.push(error.message);
    await transport.start();
    stdin.write('{"jsonrpc":"2.0","id":1,"met');
    stdin.write('hod":"ping"}\n{"jsonrpc":"2.0","method":"notifications/initialized"}\r\nnot json\n\n');
    stdin.write('{"jsonrpc":"2.0","id":2,"result":{"_meta":{"k":1}}}\n{"id":3}\n');
    await new Promise((resolve) => setImmediate(resolve));
    expect(received).toEqual([
      { jsonrpc: '2.0', id: 1, method: 'ping' },
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      // An unusual shape (a result with _meta) is read by the SDK's schema.
      { jsonrpc: '2.0', id: 2, result: { _meta: { k: 1 } } },
    ]);
    expect(errors).toEqual(['a stdio line is not a JSON-RPC message']);
    await transport.close();
  });

  it('closes the connection on a line over the cap, however it arrives', async () => {
    const stdin = new PassThrough();
    const transport = new StdioWire(stdin, recordingStdout().stdout, 100);
    const errors: string[] = [];
    let closed = false;
    transport.onerror = (error) => errors.push(error.message);
    transport.onclose = () => {
      closed = true;
    };
    await transport.start();
    stdin.write(`{"jsonrpc":"2.0","id":1,"method":"ping","params":{"pad":"${'x'.repeat(20)}`);
    expect(closed).toBe(false);
    stdin.write(`${'x'.repeat(40)}"}}\n`);
    await new Promise((resolve) => setImmediate(resolve));
    expect(closed).toBe(true);
    expect(errors).toEqual(['a stdio message exceeds the maximum size of 100 bytes']);
  });
});
