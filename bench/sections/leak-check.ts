/**
 * Section "leak": one long-lived legacy-era SDK client makes many calls through Portcullis at concurrency 16,
 * to the HTTP echo upstream over a modern-era and a legacy-era upstream link, while a probe watches the
 * AbortSignals the SDK's StreamableHTTPClientTransport hands to fetch, the heap, and process warnings.
 */
import { connectHttp } from '../clients.ts';
import { startEchoHttp } from '../echo-upstream.ts';
import { rate } from '../format.ts';
import { startBenchGateway } from '../gateway.ts';
import { runLoad } from '../load.ts';
import { forceGc, startSignalProbe, type SignalReport } from '../signal-probe.ts';
import type { BenchOptions, Section, SectionResult } from '../types.ts';

/** Where the accumulation comes from, for the report (checked against @modelcontextprotocol/client 2.4.0). */
export const LEAK_SOURCES = {
  listeners:
    'node_modules/@modelcontextprotocol/client/dist/index.mjs, StreamableHTTPClientTransport._send (and ' +
    '_startOrAuthSse): with no per-request signal (legacy era) it passes the transport-lifetime ' +
    'this._abortController.signal to every fetch; undici adds one abort listener per Request and removes it only ' +
    'when that Request is garbage-collected',
  dependants:
    'node_modules/@modelcontextprotocol/client/dist/index.mjs, anySignal() called from ' +
    'StreamableHTTPClientTransport._send (modern era): AbortSignal.any([transportSignal, requestSignal]) per ' +
    "request; Node 20 keeps one WeakRef per composite in the transport signal's dependant set and never prunes it",
} as const;

/** Describes one signal's fate in words. */
export function describeSignal(report: SignalReport): string {
  const listeners =
    report.abortListenersAfterGc > 8
      ? `${report.abortListenersAfterGc} abort listeners RETAINED after GC`
      : `abort listeners peak >= ${report.peakAbortListeners}, ${report.abortListenersAfterGc} after GC`;
  const dependants =
    report.dependantsAfterGc > 0
      ? `, ${report.dependantsAfterGc} AbortSignal.any dependants retained after GC`
      : '';
  return `${report.label}: ${report.fetches} fetches, ${listeners}${dependants}`;
}

async function runLeak(options: BenchOptions): Promise<SectionResult> {
  const http = await startEchoHttp();
  const gw = await startBenchGateway(
    {
      modern: { transport: 'http', url: http.url, protocol: 'auto' },
      legacy: { transport: 'http', url: http.url, protocol: 'legacy' },
    },
    { PATH: process.env.PATH, HOME: process.env.HOME },
  );
  // The SDK's own fetch: the check shows what its transport does to a long-lived signal.
  const client = await connectHttp(gw.url, { sdkFetch: true });
  // Counted beside whatever prints warnings (run.ts captures them), not instead of it.
  let maxListenerWarnings = 0;
  const onWarning = (warning: Error) => {
    if (warning.name === 'MaxListenersExceededWarning') maxListenerWarnings += 1;
  };
  process.on('warning', onWarning);
  try {
    const tools = ['modern_echo', 'legacy_echo'] as const;
    await runLoad(
      (i) => client.echo(tools[i % 2] as string, `warm-${i}`),
      options.warmup,
      options.concurrency,
    );
    await forceGc();
    const heapBefore = process.memoryUsage().heapUsed;
    maxListenerWarnings = 0;
    const probe = startSignalProbe();
    const stats = await runLoad(
      (i) => client.echo(tools[i % 2] as string, `leak-${i}`),
      options.leakCalls,
      options.concurrency,
    );
    const signals = await probe.finish();
    const heapAfter = process.memoryUsage().heapUsed;
    const eras = Object.fromEntries(gw.gateway.supervisor.snapshots().map((s) => [s.id, s.era]));
    const gatewayHost = new URL(gw.url).host;
    const labelled = signals.map((s) => ({
      ...s,
      label: s.label.startsWith(gatewayHost)
        ? `bench client -> gateway ${s.label}`
        : `gateway -> upstream ${s.label}`,
    }));
    const retained = labelled.filter(
      (s) => s.abortListenersAfterGc > 8 || s.dependantsAfterGc > options.leakCalls / 10,
    );
    const gcBounded = labelled.filter((s) => s.peakAbortListeners > 100 && s.abortListenersAfterGc <= 8);
    const heapDeltaMb = (heapAfter - heapBefore) / 1e6;
    const findings = [
      ...(retained.length > 0
        ? [`LEAK, per-call state kept after GC on ${retained.map((s) => s.label).join('; ')}`]
        : []),
      ...(gcBounded.length > 0 || maxListenerWarnings > 0
        ? [`abort listeners pile up between GCs on ${gcBounded.map((s) => s.label).join('; ') || 'a signal'}`]
        : []),
    ];
    const verdict = findings.length > 0 ? findings.join('; ') : 'no accumulation seen';
    return {
      tables: [],
      targets: [],
      lines: [
        `leak check: ${verdict}; ${options.leakCalls} calls at concurrency ${options.concurrency} through one client ` +
          `(${rate(stats.callsPerSec)} calls/s, ${stats.errors} errors), heap ${heapDeltaMb >= 0 ? '+' : ''}${heapDeltaMb.toFixed(1)} MB after GC, ` +
          `${maxListenerWarnings} MaxListenersExceededWarning`,
        ...labelled.map((s) => `  ${describeSignal(s)}`),
        ...(labelled.some((s) => s.label.startsWith('gateway -> upstream'))
          ? []
          : [
              '  gateway -> upstream: no long-lived signal reached fetch twice (each upstream request has its own signal)',
            ]),
        `  upstream links: ${JSON.stringify(eras)}; "(direct)": the transport's lifetime signal goes straight to ` +
          'fetch (legacy era); "(AbortSignal.any source)": it is combined with a per-request signal (modern era)',
        ...(gcBounded.length > 0 || maxListenerWarnings > 0
          ? [`  listeners: ${LEAK_SOURCES.listeners}`]
          : []),
        ...(labelled.some((s) => s.dependantsAfterGc > 0)
          ? [`  dependants: ${LEAK_SOURCES.dependants}`]
          : []),
      ],
      figures: {
        calls: options.leakCalls,
        stats,
        heapBeforeBytes: heapBefore,
        heapAfterBytes: heapAfter,
        maxListenerWarnings,
        signals: labelled,
        eras,
        verdict,
      },
    };
  } finally {
    process.off('warning', onWarning);
    await client.close().catch(() => {});
    await gw.close();
    await http.stop();
  }
}

/** The abort-listener leak check. */
export const leakSection: Section = { name: 'leak', run: runLeak };
