/** Starts the OTLP/HTTP sink (bench/otlp-sink-server.ts) as a child process, so its parsing stays off the bench's loop. */
import path from 'node:path';
import { ROOT } from './echo-upstream.ts';
import { SINK_LISTENING_PREFIX, type SinkCounts, type SinkStats } from './otlp-sink-server.ts';
import { childEnv, spawnUntilLine, stopChild } from './spawn.ts';

/** A running sink. */
export interface OtlpSink {
  /** The `telemetry.otlp.endpoint` for one gateway: spans it exports are counted under `name`. */
  endpoint(name: string): string;
  /** The counts so far. */
  stats(): Promise<SinkStats>;
  stop(): Promise<void>;
}

/** The counts of one gateway's prefix, zero when it sent nothing. */
export function countsFor(stats: SinkStats, name: string): SinkCounts {
  return stats[name] ?? { tracePosts: 0, spans: 0, metricPosts: 0, otherPosts: 0, bytes: 0, unparsed: 0 };
}

/** Spawns the sink on 127.0.0.1 and a free port. */
export async function startOtlpSink(timeoutMs = 30_000): Promise<OtlpSink> {
  const { child, rest: base } = await spawnUntilLine({
    command: process.execPath,
    args: ['--import', 'tsx', path.join(ROOT, 'bench/otlp-sink-server.ts')],
    cwd: ROOT,
    env: childEnv(),
    prefix: SINK_LISTENING_PREFIX,
    timeoutMs,
  });
  return {
    endpoint: (name) => `${base}/${encodeURIComponent(name)}/`,
    async stats() {
      const response = await fetch(`${base}/stats`);
      return (await response.json()) as SinkStats;
    },
    stop: () => stopChild(child, 5_000),
  };
}
