/** The line reader both stdio hops share: byte-level splitting, the cap's exact edge, and stopping mid-chunk. */
import type { JSONRPCMessage } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { JsonLineReader } from './json-lines.ts';

function reader(maxLineBytes: number, onMessage?: (reader: JsonLineReader) => void) {
  const seen = { messages: [] as JSONRPCMessage[], notJsonRpc: 0, oversized: [] as number[] };
  const lines: JsonLineReader = new JsonLineReader(maxLineBytes, {
    message: (message) => {
      seen.messages.push(message);
      onMessage?.(lines);
    },
    notJsonRpc: () => (seen.notJsonRpc += 1),
    oversized: (limit) => seen.oversized.push(limit),
  });
  return { lines, seen };
}

const notification = (text: string) => ({
  jsonrpc: '2.0',
  method: 'notifications/message',
  params: { text },
});

describe('JsonLineReader', () => {
  it('reads a line fed one byte at a time, multi-byte characters split across chunks, CRLF ended', () => {
    const { lines, seen } = reader(1024);
    const bytes = Buffer.from(`${JSON.stringify(notification('é€😀'))}\r\n`);
    for (const byte of bytes) lines.push(Buffer.from([byte]));
    expect(seen.messages).toEqual([notification('é€😀')]);
  });

  it('reads whole lines where they lie and a line split across chunks between them, in order', () => {
    const { lines, seen } = reader(1024);
    const [a, b, c, d] = ['a', 'b', 'c€', 'd'].map((t) => JSON.stringify(notification(t))) as string[];
    const tail = Buffer.from(`${c}\r\n`);
    lines.push(Buffer.concat([Buffer.from(`${a}\r\n${b}\n`), tail.subarray(0, tail.length - 3)]));
    lines.push(Buffer.concat([tail.subarray(tail.length - 3), Buffer.from(`${d}\n`)]));
    expect(seen.messages).toEqual(['a', 'b', 'c€', 'd'].map(notification));
  });

  it('takes a line of exactly the cap and stops on one byte more, for good', () => {
    const line = JSON.stringify(notification('x'));
    const { lines, seen } = reader(Buffer.byteLength(line));
    lines.push(`${line}\n`);
    expect(seen.messages).toHaveLength(1);
    lines.push(`${line} \n${line}\n`);
    expect(seen.oversized).toEqual([Buffer.byteLength(line)]);
    lines.push(`${line}\n`);
    expect(seen.messages).toHaveLength(1);
  });

  it('counts a line over the cap before its newline arrives', () => {
    const { lines, seen } = reader(10);
    lines.push('{"jsonrpc":');
    expect(seen.oversized).toEqual([10]);
  });

  it('drops the rest of a chunk once a sink callback stops the reader', () => {
    const { lines, seen } = reader(1024, (r) => r.stop());
    const line = JSON.stringify(notification('a'));
    lines.push(`${line}\n${line}\n${line}\n`);
    expect(seen.messages).toHaveLength(1);
  });

  it('reports JSON that is not JSON-RPC, skips what is not JSON, and reads unusual messages with the schema', () => {
    const { lines, seen } = reader(1024);
    const error = { jsonrpc: '2.0', id: 4, error: { code: -32601, message: 'no such method' } };
    lines.push(`{"id":1}\n{oops\n   \n${JSON.stringify(error)}\n`);
    expect(seen.notJsonRpc).toBe(1);
    expect(seen.messages).toEqual([error]);
  });
});
