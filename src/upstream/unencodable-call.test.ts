/**
 * Issue 14, defect 3: a request that cannot be encoded (a bigint, a cycle, nesting too deep for JSON.stringify)
 * is that request's error, never the connection's. Against a real server-everything over stdio on the gateway's
 * own legacy client: a tool without an outputSchema and one with (its structured result is checked).
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UpstreamConfig } from '../config/index.ts';
import { isPortcullisError } from '../errors/index.ts';
import { connectUpstream, type UpstreamConnection } from './connection.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const EVERYTHING = path.join(ROOT, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js');

let connection: UpstreamConnection;
const closes: (Error | undefined)[] = [];

beforeAll(async () => {
  const config: UpstreamConfig = {
    id: 'every',
    enabled: true,
    protocol: 'legacy',
    callTimeoutMs: 10_000,
    sampling: false,
    transport: 'stdio',
    command: process.execPath,
    args: [EVERYTHING, 'stdio'],
    env: {},
  };
  connection = await connectUpstream(
    config,
    { inheritedEnv: {} },
    { onClose: (error) => closes.push(error), onListChanged: () => {} },
  );
  await connection.fetchLists();
}, 60_000);
afterAll(async () => connection?.close());

function cyclic(): Record<string, unknown> {
  const value: Record<string, unknown> = { message: 'loop' };
  value['self'] = value;
  return value;
}

function tooDeepForJson(): Record<string, unknown> {
  let value: unknown = 'bottom';
  for (let i = 0; i < 10_000; i += 1) value = { a: value };
  return { message: 'deep', nested: value };
}

describe('a tools/call that cannot be encoded', () => {
  it.each([
    ['a bigint', 'echo', () => ({ message: 'big', n: 1n })],
    ['a cycle', 'echo', cyclic],
    ['nesting too deep for JSON', 'echo', tooDeepForJson],
    [
      'a bigint (a tool with an outputSchema)',
      'get-structured-content',
      () => ({ location: 'New York', n: 1n }),
    ],
    ['a cycle (a tool with an outputSchema)', 'get-structured-content', cyclic],
  ])('fails only that call: %s', async (_name, tool, args) => {
    const failure = await connection.callTool(tool, args(), {}).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(isPortcullisError(failure)).toBe(true);
    expect(failure).toMatchObject({ code: 'INVALID_ARGUMENTS', reason: 'unencodable' });
    expect((failure as Error).message).toMatch(/cannot be encoded as JSON/);
    expect((failure as Error).message).not.toMatch(/call stack|BigInt|circular/i);

    const next = await connection.callTool('echo', { message: 'still up' }, {});
    expect(JSON.stringify(next.content)).toContain('still up');
    expect(closes).toEqual([]);
  });
});
