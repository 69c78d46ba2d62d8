/**
 * `--profile`: samples the CPU of the bench process (which hosts the in-process gateway) with the inspector,
 * then attributes time to the gateway's own functions (src/**) by original file:line through the source maps
 * tsx registers, so hot spots can be read without a separate profiler UI.
 */
import { Session } from 'node:inspector/promises';
import { findSourceMap } from 'node:module';
import path from 'node:path';
import { ROOT } from './echo-upstream.ts';

/** One function's share of the profile. */
export interface HotSpot {
  /** `name src/file.ts:line` (line of the function's start in the original source). */
  where: string;
  selfMs: number;
  inclusiveMs: number;
}

/** What the profile says about the gateway's own code. */
export interface ProfileSummary {
  totalMs: number;
  idleMs: number;
  /** Inclusive time of all gateway frames (a sample counts once however deep). */
  gatewayMs: number;
  bySelf: HotSpot[];
  byInclusive: HotSpot[];
  /** Self time by origin: a package under node_modules, `src`, `bench`, `node` internals, or a VM bucket. */
  byOrigin: { origin: string; selfMs: number }[];
}

/** The part of a V8 profile call frame the summary reads. */
export interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
  columnNumber: number;
}
interface ProfileNode {
  id: number;
  callFrame: CallFrame;
  children?: number[];
}
interface CpuProfile {
  nodes: ProfileNode[];
  samples?: number[];
  timeDeltas?: number[];
}

const SRC_PREFIX = `${new URL(`file://${path.join(ROOT, 'src')}/`).href}`;

/** `name src/file.ts:line` for a frame of the gateway's source, or undefined for anything else. */
function gatewayFrame(frame: CallFrame): string | undefined {
  if (!frame.url.startsWith(SRC_PREFIX)) return undefined;
  const entry = findSourceMap(frame.url)?.findEntry(frame.lineNumber, frame.columnNumber);
  const line = entry && 'originalLine' in entry ? entry.originalLine + 1 : frame.lineNumber + 1;
  return `${frame.functionName || '(anonymous)'} src/${frame.url.slice(SRC_PREFIX.length)}:${line}`;
}

/** Where a frame's code comes from, for the per-origin breakdown. */
export function originOf(frame: CallFrame): string {
  const url = frame.url;
  if (url === '') return frame.functionName.startsWith('(') ? frame.functionName : '(native)';
  if (url.startsWith('node:')) return 'node internals';
  const modules = url.lastIndexOf('/node_modules/');
  if (modules >= 0) {
    const rest = url.slice(modules + '/node_modules/'.length).split('/');
    return rest[0]?.startsWith('@') ? `${rest[0]}/${rest[1] ?? ''}` : (rest[0] ?? url);
  }
  if (url.startsWith(SRC_PREFIX)) return 'src (gateway)';
  if (url.includes('/bench/')) return 'bench';
  return url;
}

/** Aggregates a CPU profile into gateway hot spots. */
export function summarizeProfile(profile: CpuProfile, top = 15): ProfileSummary {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const timeById = new Map<number, number>();
  const samples = profile.samples ?? [];
  const deltas = profile.timeDeltas ?? [];
  samples.forEach((id, i) => timeById.set(id, (timeById.get(id) ?? 0) + (deltas[i] ?? 0)));

  const self = new Map<string, number>();
  const origins = new Map<string, number>();
  const inclusive = new Map<string, number>();
  let totalUs = 0;
  let idleUs = 0;
  let gatewayUs = 0;
  const labels = new Map<number, string | undefined>();
  const label = (id: number) => {
    if (!labels.has(id)) labels.set(id, gatewayFrame((byId.get(id) as ProfileNode).callFrame));
    return labels.get(id);
  };
  for (const [id, us] of timeById) {
    totalUs += us;
    const frame = (byId.get(id) as ProfileNode).callFrame;
    if (frame.functionName === '(idle)') idleUs += us;
    const origin = originOf(frame);
    origins.set(origin, (origins.get(origin) ?? 0) + us);
    const own = label(id);
    if (own) self.set(own, (self.get(own) ?? 0) + us);
    const seen = new Set<string>();
    for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) {
      const where = label(cur);
      if (where && !seen.has(where)) {
        seen.add(where);
        inclusive.set(where, (inclusive.get(where) ?? 0) + us);
      }
    }
    if (seen.size > 0) gatewayUs += us;
  }
  const spot = (where: string): HotSpot => ({
    where,
    selfMs: (self.get(where) ?? 0) / 1000,
    inclusiveMs: (inclusive.get(where) ?? 0) / 1000,
  });
  const rank = (m: Map<string, number>) =>
    [...m.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([where]) => spot(where));
  return {
    totalMs: totalUs / 1000,
    idleMs: idleUs / 1000,
    gatewayMs: gatewayUs / 1000,
    bySelf: rank(self),
    byInclusive: rank(inclusive),
    byOrigin: [...origins.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([origin, us]) => ({ origin, selfMs: us / 1000 })),
  };
}

/** A running profiler. */
export interface Profiler {
  stop(): Promise<ProfileSummary>;
}

/** Starts sampling this process's CPU. */
export async function startProfiler(samplingIntervalUs = 200): Promise<Profiler> {
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: samplingIntervalUs });
  await session.post('Profiler.start');
  return {
    async stop() {
      const { profile } = (await session.post('Profiler.stop')) as { profile: CpuProfile };
      session.disconnect();
      return summarizeProfile(profile);
    },
  };
}
