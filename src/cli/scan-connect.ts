/**
 * Turns what `scan` read into validated upstreams and their snapshots: client-config entries go through the
 * config loader (the same validation portcullis.yaml gets) and are connected a few at a time, each with its own
 * supervisor and a hard deadline; tools files become snapshots directly, with no connection.
 */
import path from 'node:path';
import { buildConfig, type PortcullisConfig, type UpstreamConfig } from '../config/index.ts';
import type { EnvLookup } from '../secrets/index.ts';
import { createSupervisor, type UpstreamSnapshot } from '../upstream/index.ts';
import type { TextPosition } from './scan-json.ts';
import type { ClientServerEntry, OfflineServer } from './scan-sources.ts';

/** One server of a scan: its name in the file, its upstream id, where it sits, and what was learned. */
export interface ScanServer {
  name: string;
  id: string;
  position: TextPosition | undefined;
  /** JSON pointer of each tool entry in the file (tools files only). */
  toolPointers: Map<string, string>;
  snapshot: UpstreamSnapshot;
  upstream: UpstreamConfig | undefined;
}

/** How `scan` connects. */
export interface ConnectOptions {
  inheritedEnv: Record<string, string | undefined>;
  lookup: EnvLookup;
  /** Per server: connecting, initializing and listing together (ms). */
  timeoutMs: number;
  /** Servers connected at the same time. */
  concurrency: number;
}

const IDENTIFIER = /^[A-Za-z0-9][A-Za-z0-9_-]{0,31}$/;

/** Upstream ids for the names of a file (config identifiers are narrower than client names), unique. */
function assignIds(names: readonly string[]): string[] {
  const taken = new Set<string>();
  return names.map((name) => {
    const base = IDENTIFIER.test(name)
      ? name
      : `s-${name.replace(/[^A-Za-z0-9_-]+/g, '-').replace(/^[-_]+/, '')}`.slice(0, 28).replace(/-+$/, '') ||
        's';
    let id = base;
    for (let n = 2; taken.has(id.toLowerCase()); n += 1) id = `${base.slice(0, 28)}-${n}`;
    taken.add(id.toLowerCase());
    return id;
  });
}

const emptySnapshot = (
  id: string,
  transport: UpstreamSnapshot['transport'],
  state: UpstreamSnapshot['state'],
  lastError?: string,
): UpstreamSnapshot => ({
  id,
  transport,
  state,
  ...(lastError === undefined ? {} : { lastError }),
  tools: [],
  prompts: [],
  resources: [],
  resourceTemplates: [],
  attempts: 0,
});

/** A scan's configuration: the embedded defaults with these upstream documents, validated by the config loader. */
export function scanConfig(
  upstreams: Record<string, Record<string, unknown>>,
  source: string,
  lookup: EnvLookup,
): PortcullisConfig {
  return buildConfig(
    { store: { path: ':memory:' }, upstreams },
    source,
    path.dirname(path.resolve(source)),
    lookup,
  );
}

function validated(
  id: string,
  entry: ClientServerEntry,
  source: string,
  lookup: EnvLookup,
): UpstreamConfig | string {
  if ('problem' in entry.upstream) return entry.upstream.problem;
  try {
    const config = scanConfig({ [id]: entry.upstream.document }, source, lookup);
    return config.upstreams[0] ?? 'no upstream';
  } catch (error) {
    // The loader names the path in portcullis.yaml terms; the operator knows the entry by its name in the file.
    return (error as Error).message.replace(`${source}: `, '');
  }
}

async function connectOne(upstream: UpstreamConfig, options: ConnectOptions): Promise<UpstreamSnapshot> {
  const supervisor = createSupervisor({
    upstreams: [upstream],
    transport: { inheritedEnv: options.inheritedEnv },
    onChange: () => {},
    connectTimeoutMs: options.timeoutMs,
    // One attempt: a scan reports a server that fails, it does not wait for it to come back.
    reconnectDelay: () => 24 * 3_600_000,
    heartbeatMs: 0,
  });
  supervisor.start();
  try {
    await supervisor.settled(options.timeoutMs);
    const snapshot =
      supervisor.snapshot(upstream.id) ?? emptySnapshot(upstream.id, upstream.transport, 'down');
    if (snapshot.state === 'connecting')
      return { ...snapshot, state: 'down', lastError: `no answer within ${options.timeoutMs / 1000} s` };
    return snapshot;
  } finally {
    await supervisor.close();
  }
}

/** Runs `work` over `items` with at most `limit` at a time, keeping the order of the results. */
async function pooled<T, R>(
  items: readonly T[],
  limit: number,
  work: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const lane = async () => {
    for (let i = next++; i < items.length; i = next++) results[i] = await work(items[i] as T, i);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
  return results;
}

/** Validates and connects the servers of a client config; one that cannot start is reported, the rest go on. */
export async function connectClientServers(
  entries: readonly ClientServerEntry[],
  source: string,
  options: ConnectOptions,
): Promise<ScanServer[]> {
  const ids = assignIds(entries.map((e) => e.name));
  return pooled(entries, options.concurrency, async (entry, index) => {
    const id = ids[index] ?? entry.name;
    const base = { name: entry.name, id, position: entry.position, toolPointers: new Map<string, string>() };
    const transport =
      'problem' in entry.upstream
        ? 'stdio'
        : (entry.upstream.document.transport as UpstreamSnapshot['transport']);
    if (entry.disabled)
      return { ...base, upstream: undefined, snapshot: emptySnapshot(id, transport, 'disabled') };
    const upstream = validated(id, entry, source, options.lookup);
    if (typeof upstream === 'string')
      return {
        ...base,
        upstream: undefined,
        snapshot: emptySnapshot(id, transport, 'down', `invalid entry: ${upstream}`),
      };
    return { ...base, upstream, snapshot: await connectOne(upstream, options) };
  });
}

/** The servers of a tools file as connected snapshots (no connection is made). */
export function offlineServers(servers: readonly OfflineServer[]): ScanServer[] {
  const ids = assignIds(servers.map((s) => s.name));
  return servers.map((server, i) => {
    const id = ids[i] ?? server.name;
    return {
      name: server.name,
      id,
      position: server.position,
      toolPointers: new Map(server.tools.map((t) => [t.tool.name, t.pointer])),
      upstream: undefined,
      snapshot: {
        ...emptySnapshot(id, 'stdio', 'connected'),
        tools: server.tools.map((t) => t.tool),
        rejectedTools: server.rejected.map(({ name, reason }) => ({ name, reason })),
        prompts: server.prompts,
        resources: server.resources,
        resourceTemplates: server.resourceTemplates,
        ...(server.instructions === undefined ? {} : { instructions: server.instructions }),
      },
    };
  });
}

/**
 * The configuration to govern `servers` under: each connected server's validated upstream, and for tools-file
 * servers a stand-in local stdio upstream with no catalog entry (the file says nothing about where it runs).
 */
export function governingConfig(
  servers: readonly ScanServer[],
  source: string,
  lookup: EnvLookup,
): PortcullisConfig {
  const base = scanConfig({}, source, lookup);
  const upstreams = servers.map(
    (s): UpstreamConfig =>
      s.upstream ?? {
        ...(scanConfig(
          { [s.id]: { transport: 'stdio', command: `(${path.basename(source)})` } },
          source,
          lookup,
        ).upstreams[0] as UpstreamConfig),
      },
  );
  return { ...base, upstreams };
}
