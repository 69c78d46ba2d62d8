/**
 * The npm relays a user would install instead of Portcullis, as bench paths: `mcp-proxy` and `supergateway`
 * (devDependencies), each a child process serving the stdio echo upstream over Streamable HTTP on a free port,
 * called by the same SDK client as `portcullis serve`. Their command lines come from each package's README and
 * CLI options: mcp-proxy `--host --port --server stream -- <command>`; supergateway `--stdio "<shell command>"
 * --outputTransport streamableHttp --stateful --port` (stateful: its stateless mode spawns a new upstream per
 * POST, which no one would bench as a relay).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { connect } from 'node:net';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { freePort } from '../test/helpers/gateway-harness.ts';
import { connectHttp, type BenchClient, type StdioLaunch } from './clients.ts';
import { ECHO_STDIO, ROOT } from './echo-upstream.ts';
import { createLineCounter } from './gateway-process.ts';
import { commandLineOf, descendantPids } from './proc-cpu.ts';
import { childEnv, stopChild } from './spawn.ts';

/** The npm peers, in the order their cells run. */
export const PEER_PATHS = ['mcp-proxy', 'supergateway'] as const;
/** One npm peer. */
export type PeerPath = (typeof PEER_PATHS)[number];

/** Where a peer listens and what the bench says about it. */
export interface PeerLaunch extends StdioLaunch {
  /** The URL of its Streamable HTTP endpoint. */
  url: string;
  /** What the command line leaves at the package's defaults, or cannot choose. */
  note: string;
}

/** The installed version and bin script of an npm package in the repository's node_modules. */
export function packageBin(name: PeerPath): { version: string; bin: string } {
  const dir = path.join(ROOT, 'node_modules', name);
  const manifest = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as {
    version: string;
    bin: string | Record<string, string>;
  };
  const bin = typeof manifest.bin === 'string' ? manifest.bin : manifest.bin[name];
  if (bin === undefined) throw new Error(`${name} declares no "${name}" bin`);
  return { version: manifest.version, bin: path.join(dir, bin) };
}

/** Quotes one word for the POSIX shell supergateway runs its `--stdio` command with. */
export function shellQuote(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`;
}

/** The command line of `peer` in front of `upstream` (the stdio echo upstream by default) on 127.0.0.1:`port`. */
export function peerLaunch(peer: PeerPath, port: number, upstream: StdioLaunch = ECHO_STDIO): PeerLaunch {
  const { bin, version } = packageBin(peer);
  const url = `http://127.0.0.1:${port}/mcp`;
  if (peer === 'mcp-proxy') {
    return {
      command: process.execPath,
      args: [
        bin,
        '--host',
        '127.0.0.1',
        '--port',
        String(port),
        '--server',
        'stream',
        '--',
        upstream.command,
        ...upstream.args,
      ],
      cwd: upstream.cwd,
      url,
      note: `mcp-proxy ${version}: stream endpoint only, its defaults otherwise (sessions, event store on)`,
    };
  }
  return {
    command: process.execPath,
    args: [
      bin,
      '--stdio',
      [upstream.command, ...upstream.args].map(shellQuote).join(' '),
      '--outputTransport',
      'streamableHttp',
      '--stateful',
      '--port',
      String(port),
      '--logLevel',
      'none',
    ],
    cwd: upstream.cwd,
    url,
    note:
      `supergateway ${version}: --stateful (one upstream per session; stateless spawns one per POST); it has no ` +
      `host flag, so it listens on every interface of this machine (the bench calls it on 127.0.0.1)`,
  };
}

/** A running peer. */
export interface PeerProcess {
  peer: PeerPath;
  url: string;
  pid: number;
  note: string;
  /** Its upstream's pid once a session spawned it (the first one below the peer ending in `suffix`). */
  upstreamPid(suffix: string): number | undefined;
  /** SIGTERM, wait for the exit, then SIGKILL whatever of its process tree is still there. */
  stop(): Promise<void>;
}

async function portAnswers(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

function killAll(pids: readonly number[]): void {
  for (const pid of pids) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // Already gone.
    }
  }
}

/** Starts `peer` in front of the stdio echo upstream on a free port; resolves once the port accepts connections. */
export async function startPeer(peer: PeerPath, timeoutMs = 90_000): Promise<PeerProcess> {
  const port = await freePort();
  const launch = peerLaunch(peer, port);
  // stdin ignored: supergateway stops when a pipe on its stdin closes.
  const child: ChildProcess = spawn(launch.command, [...launch.args], {
    cwd: launch.cwd,
    env: childEnv(),
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const log = createLineCounter();
  child.stderr?.on('data', log.onChunk);
  const pid = child.pid ?? 0;
  // The tree is read before the stop: once the peer is gone, its orphans are no longer below it.
  const stop = async () => {
    const tree = descendantPids(pid);
    await stopChild(child, 10_000);
    killAll(tree);
  };
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) {
      await stop();
      throw new Error(
        `${peer} exited with ${child.exitCode ?? child.signalCode} before it listened:\n${log.tail()}`,
      );
    }
    if (await portAnswers(port)) break;
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`${peer} did not listen on ${port} within ${timeoutMs} ms:\n${log.tail()}`);
    }
    await sleep(50);
  }
  return {
    peer,
    url: launch.url,
    pid,
    note: launch.note,
    // supergateway runs its command through `sh -c`, whose command line ends the same way: skip the shell.
    upstreamPid: (suffix) =>
      descendantPids(pid).find((p) => {
        const line = commandLineOf(p);
        return line.endsWith(suffix) && !line.includes(' -c ');
      }),
    stop,
  };
}

/** A peer with the bench client connected to it, or why it could not be started. */
export type PeerStart =
  | { peer: PeerPath; ok: true; process: PeerProcess; client: BenchClient; upstreamPid: number | undefined }
  | { peer: PeerPath; ok: false; reason: string };

/**
 * Starts every peer and connects a client to each, side by side; a peer that cannot start is reported with its
 * reason instead of failing the section. `register` gets the cleanup of whatever did start.
 */
export async function startPeerPaths(register: (step: () => Promise<void>) => void): Promise<PeerStart[]> {
  const suffix = ECHO_STDIO.args.join(' ');
  return Promise.all(
    PEER_PATHS.map(async (peer): Promise<PeerStart> => {
      try {
        const running = await startPeer(peer);
        register(() => running.stop());
        const client = await connectHttp(running.url);
        register(() => client.close());
        // Both peers spawn the upstream by the time the session is initialized.
        return { peer, ok: true, process: running, client, upstreamPid: running.upstreamPid(suffix) };
      } catch (error) {
        return { peer, ok: false, reason: error instanceof Error ? error.message : String(error) };
      }
    }),
  );
}
