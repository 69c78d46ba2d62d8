/**
 * The gateway's own 2025-era client over the SDK's HTTP framings, against server-everything: Streamable HTTP and
 * legacy SSE, each in `auto` (the probe finds no 2026 server) and `legacy` mode. The handshake, a paged tools/list,
 * a call with progress, a prompt, a resource and ping all cross each framing.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UpstreamConfig } from '../../src/config/index.ts';
import { connectUpstream } from '../../src/upstream/connection.ts';
import { freePort } from '../helpers/gateway-harness.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const EVERYTHING = path.join(ROOT, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js');

/** Starts server-everything in `mode` on a free port; resolves once it says it listens. */
async function startEverything(
  mode: 'sse' | 'streamableHttp',
): Promise<{ port: number; child: ChildProcess }> {
  const port = await freePort();
  const child = spawn(process.execPath, [EVERYTHING, mode], {
    env: { PATH: process.env.PATH ?? '', PORT: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  await new Promise<void>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      if (/listening|running on port/i.test(chunk.toString())) resolve();
    };
    child.stderr?.on('data', onData);
    child.stdout?.on('data', onData);
    child.once('exit', (code) => reject(new Error(`server-everything ${mode} exited with ${code}`)));
  });
  return { port, child };
}

const servers: ChildProcess[] = [];
let sse: number;
let http: number;
beforeAll(async () => {
  const [a, b] = await Promise.all([startEverything('sse'), startEverything('streamableHttp')]);
  servers.push(a.child, b.child);
  sse = a.port;
  http = b.port;
}, 60_000);
afterAll(() => {
  for (const child of servers) child.kill('SIGTERM');
});

describe.each([
  ['legacy SSE', 'sse', () => `http://127.0.0.1:${sse}/sse`],
  ['Streamable HTTP', 'http', () => `http://127.0.0.1:${http}/mcp`],
] as const)('server-everything over %s', (_name, transport, url) => {
  it.each(['auto', 'legacy'] as const)(
    'serves a 2025-era link in %s mode',
    async (protocol) => {
      const config = {
        id: `every-${transport}`,
        enabled: true,
        protocol,
        callTimeoutMs: 10_000,
        sampling: false,
        transport,
        url: url(),
        headers: {},
      } as UpstreamConfig;
      const connection = await connectUpstream(
        config,
        { inheritedEnv: {} },
        { onClose: () => {}, onListChanged: () => {} },
      );
      try {
        expect(connection.era).toBe('legacy');
        expect(connection.protocolVersion).toMatch(/^2025-/);
        const lists = await connection.fetchLists();
        expect(lists.tools.map((tool) => tool.name)).toContain('echo');
        expect(lists.prompts.length).toBeGreaterThan(0);
        expect(lists.resources.length).toBeGreaterThan(0);

        const progress: number[] = [];
        const result = await connection.callTool(
          'trigger-long-running-operation',
          { duration: 0.2, steps: 2 },
          { onProgress: (p) => progress.push(p.progress) },
        );
        expect(JSON.stringify(result.content)).toContain('completed');
        expect(progress).toEqual([1, 2]);

        const prompt = await connection.getPrompt(lists.prompts[0]!.name, undefined);
        expect(prompt.messages.length).toBeGreaterThan(0);
        const read = await connection.readResource(lists.resources[0]!.uri);
        expect(read.contents[0]?.uri).toBe(lists.resources[0]!.uri);
        await connection.probe(5_000);
      } finally {
        await connection.close();
      }
    },
    60_000,
  );
});
