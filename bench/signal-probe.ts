/**
 * Watches the AbortSignals that SDK client transports hand to fetch, to see whether a long-lived connection
 * accumulates abort listeners (undici adds one per request) or AbortSignal.any dependants (one per request).
 * It wraps globalThis.fetch for the duration of a check and reads Node's internal symbols by description.
 */
import { getEventListeners } from 'node:events';
import v8 from 'node:v8';
import { runInNewContext } from 'node:vm';

/** What one long-lived signal looked like. */
export interface SignalReport {
  /** Where its fetches went (`host:port`) and how the signal reached fetch (direct, or as a source of AbortSignal.any). */
  label: string;
  fetches: number;
  peakAbortListeners: number;
  abortListenersAfterGc: number;
  /** Entries in the signal's AbortSignal.any dependant set after GC (Node keeps a WeakRef per composite). */
  dependantsAfterGc: number;
}

/** A running probe. */
export interface SignalProbe {
  /** Forces GC, samples every signal seen more than once, and restores fetch. */
  finish(): Promise<SignalReport[]>;
}

function symbolNamed(target: object, description: string): symbol | undefined {
  return Object.getOwnPropertySymbols(target).find((s) => s.description === description);
}

/** Node's internal sets are primordial SafeSets, which fail `instanceof Set`: duck-type them. */
function internalSet(
  target: object,
  description: string,
): (Iterable<unknown> & { size: number }) | undefined {
  const key = symbolNamed(target, description);
  const value = key === undefined ? undefined : (target as Record<symbol, unknown>)[key];
  const candidate = value as { size?: unknown; [Symbol.iterator]?: unknown } | undefined;
  return candidate && typeof candidate.size === 'number' && typeof candidate[Symbol.iterator] === 'function'
    ? (candidate as Iterable<unknown> & { size: number })
    : undefined;
}

/** Sources of a composite AbortSignal.any signal, or undefined for a plain signal. */
function sourcesOf(signal: AbortSignal): AbortSignal[] | undefined {
  const set = internalSet(signal, 'kSourceSignals');
  if (!set) return undefined;
  const out: AbortSignal[] = [];
  for (const ref of set) {
    // Primordial SafeWeakRefs fail `instanceof WeakRef` too.
    const deref = (ref as { deref?: unknown } | null)?.deref;
    const source = typeof deref === 'function' ? (deref.call(ref) as AbortSignal | undefined) : undefined;
    if (source) out.push(source);
  }
  return out;
}

/** Forces a full GC twice, letting finalizers (which remove undici's listeners) run in between. */
export async function forceGc(): Promise<void> {
  for (let i = 0; i < 2; i += 1) {
    collectGarbage();
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Runs one full GC synchronously (so a timed region starts with a clean heap). */
export function collectGarbage(): void {
  v8.setFlagsFromString('--expose-gc');
  (runInNewContext('gc') as () => void)();
}

/** Starts watching the signals passed to fetch; call finish() before reading results. */
export function startSignalProbe(sampleEvery = 50): SignalProbe {
  const original = globalThis.fetch;
  // Weak: per-request signals are seen once and must stay collectable, or the probe itself would leak.
  const seen = new WeakMap<AbortSignal, { label: string; fetches: number; peak: number }>();
  const repeated = new Set<AbortSignal>();
  const wrapped: typeof fetch = (input, init) => {
    const signal = init?.signal ?? undefined;
    if (signal) {
      const url = new URL(input instanceof Request ? input.url : String(input));
      const sources = sourcesOf(signal);
      for (const source of sources ?? [signal]) {
        const how = sources ? 'AbortSignal.any source' : 'direct';
        const entry = seen.get(source) ?? { label: `${url.host} (${how})`, fetches: 0, peak: 0 };
        entry.fetches += 1;
        if (entry.fetches % sampleEvery === 0) {
          entry.peak = Math.max(entry.peak, getEventListeners(source, 'abort').length);
        }
        seen.set(source, entry);
        if (entry.fetches === 2) repeated.add(source);
      }
    }
    return original(input, init);
  };
  globalThis.fetch = wrapped;
  return {
    async finish() {
      globalThis.fetch = original;
      await forceGc();
      return [...repeated]
        .map(
          (signal) => [signal, seen.get(signal) as { label: string; fetches: number; peak: number }] as const,
        )
        .map(([signal, entry]) => ({
          label: entry.label,
          fetches: entry.fetches,
          peakAbortListeners: entry.peak,
          abortListenersAfterGc: getEventListeners(signal, 'abort').length,
          dependantsAfterGc: internalSet(signal, 'kDependantSignals')?.size ?? 0,
        }));
    },
  };
}
