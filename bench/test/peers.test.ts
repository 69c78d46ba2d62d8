import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { connectHttp } from '../clients.ts';
import { ECHO_STDIO } from '../echo-upstream.ts';
import { PEER_PATHS, packageBin, peerLaunch, shellQuote, startPeer } from '../peers.ts';
import { descendantPids } from '../proc-cpu.ts';

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe('peer command lines', () => {
  it('finds each installed peer and its bin script', () => {
    expect(packageBin('mcp-proxy').version).toMatch(/^6\./);
    expect(packageBin('supergateway').version).toMatch(/^4\./);
    expect(packageBin('mcp-proxy').bin).toMatch(/node_modules\/mcp-proxy\/dist\/bin\/mcp-proxy\.mjs$/);
  });

  it('serves mcp-proxy on 127.0.0.1 over Streamable HTTP only, the upstream after --', () => {
    const launch = peerLaunch('mcp-proxy', 4321);
    expect(launch.url).toBe('http://127.0.0.1:4321/mcp');
    const args = launch.args.join(' ');
    expect(args).toContain('--host 127.0.0.1 --port 4321 --server stream -- ');
    expect(args.endsWith(`-- ${ECHO_STDIO.command} ${ECHO_STDIO.args.join(' ')}`)).toBe(true);
  });

  it('runs supergateway stateful over Streamable HTTP, the upstream as one shell command', () => {
    const launch = peerLaunch('supergateway', 4321, {
      command: '/bin/my node',
      args: ["it's", 'a.ts'],
      cwd: '/',
    });
    const at = (flag: string) => launch.args[launch.args.indexOf(flag) + 1];
    expect(at('--stdio')).toBe(`'/bin/my node' 'it'\\''s' a.ts`);
    expect(at('--outputTransport')).toBe('streamableHttp');
    expect(at('--port')).toBe('4321');
    expect(launch.args).toContain('--stateful');
    expect(launch.note).toMatch(/every interface/);
  });

  it('quotes only what the shell would split or expand', () => {
    expect(shellQuote('/usr/bin/node')).toBe('/usr/bin/node');
    expect(shellQuote('--import')).toBe('--import');
    expect(shellQuote('a b')).toBe(`'a b'`);
    expect(shellQuote('$HOME')).toBe(`'$HOME'`);
  });
});

describe('each peer in front of the stdio echo upstream', () => {
  it.each(PEER_PATHS)(
    '%s starts, echoes one call for the SDK client, and leaves no process behind',
    async (peer) => {
      const running = await startPeer(peer, 60_000);
      const tree: number[] = [];
      try {
        const client = await connectHttp(running.url);
        try {
          await client.echo('echo', `hello through ${peer}`);
          expect(running.upstreamPid(ECHO_STDIO.args.join(' '))).toBeGreaterThan(0);
          tree.push(...descendantPids(running.pid));
        } finally {
          await client.close();
        }
      } finally {
        await running.stop();
      }
      expect(tree.length).toBeGreaterThan(0);
      // A SIGKILLed process is gone a moment later, once it has been reaped: wait for that, bounded.
      let alive = [running.pid, ...tree];
      for (let i = 0; i < 50 && alive.length > 0; i += 1) {
        alive = alive.filter(isAlive);
        if (alive.length > 0) await sleep(100);
      }
      expect(alive).toEqual([]);
    },
    120_000,
  );
});
