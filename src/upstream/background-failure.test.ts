/**
 * A request the connection makes on its own has no caller to report to: when a 2026-era upstream refuses the
 * `subscriptions/listen` stream that carries list changes, the failure must reach onBackgroundFailure (and so
 * the log) instead of vanishing, while the connection stays usable. Against a real stdio server.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { UpstreamConfig } from '../config/index.ts';
import { connectUpstream, type UpstreamConnection } from './connection.ts';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.resolve(HERE, '../..');

let connection: UpstreamConnection;
const failures: [string, string][] = [];

beforeAll(async () => {
  const config: UpstreamConfig = {
    id: 'refusing',
    enabled: true,
    protocol: 'modern',
    callTimeoutMs: 10_000,
    sampling: false,
    transport: 'stdio',
    command: process.execPath,
    args: ['--import', 'tsx', path.join(HERE, 'test/listen-refusing-server.ts')],
    cwd: ROOT,
    env: {},
  };
  connection = await connectUpstream(
    config,
    { inheritedEnv: {} },
    {
      onClose: () => {},
      onListChanged: () => {},
      onBackgroundFailure: (request, message) => failures.push([request, message]),
    },
  );
}, 60_000);
afterAll(async () => connection?.close());

describe('a background request the upstream refuses', () => {
  it('is reported as a background failure, and the link keeps working', async () => {
    expect(connection.era).toBe('modern');
    await vi.waitFor(() => expect(failures.length).toBeGreaterThan(0), { timeout: 10_000 });
    expect(failures[0]?.[0]).toBe('listen');
    expect(failures[0]?.[1]).toMatch(/listen refused by the fixture/);
    const lists = await connection.fetchLists();
    expect(lists.tools.map((tool) => tool.name)).toEqual(['noop']);
  });
});
