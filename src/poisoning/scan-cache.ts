// A bounded cache of scan results, so a registry rebuild that re-scans unchanged definitions costs a digest and
// a map lookup. Keys are SHA-256 digests of exactly what the scan reads: an upstream cannot craft a poisoned
// definition whose key is an honest one's, as it could with a short non-cryptographic hash. No clock: the
// least recently used entry leaves when the cap is reached.
import { createHash } from 'node:crypto';
import type { McpToolDefinition } from '../risk/index.ts';

/** Cache options of a scanner; `maxEntries: 0` turns caching off. */
export interface ScanCacheOptions {
  readonly maxEntries: number;
}

/** How many results a scanner keeps by default: a large registry's tools, prompts and resources. */
export const DEFAULT_SCAN_CACHE_ENTRIES = 4096;

/** A least-recently-used map with a fixed cap. */
export interface ScanCache<T> {
  get(key: string): T | undefined;
  set(key: string, value: T): void;
  readonly size: number;
  readonly maxEntries: number;
}

/** A new cache holding at most `maxEntries` results (0: holds none). */
export function createScanCache<T>(maxEntries: number): ScanCache<T> {
  if (!Number.isInteger(maxEntries) || maxEntries < 0)
    throw new RangeError(`scan cache: maxEntries must be a non-negative integer, got ${maxEntries}`);
  // A Map iterates in insertion order: re-inserting on a hit keeps the least recently used entry first.
  const entries = new Map<string, T>();
  return {
    get(key) {
      const value = entries.get(key);
      if (value !== undefined) {
        entries.delete(key);
        entries.set(key, value);
      }
      return value;
    },
    set(key, value) {
      if (maxEntries === 0) return;
      entries.delete(key);
      if (entries.size >= maxEntries) {
        const oldest = entries.keys().next();
        if (oldest.done !== true) entries.delete(oldest.value);
      }
      entries.set(key, value);
    },
    get size() {
      return entries.size;
    },
    maxEntries,
  };
}

/**
 * The digest of the fields a tool scan reads, in the order it reads them. JSON.stringify writes every string
 * well-formed (a lone surrogate as an escape), so distinct strings never share bytes; a definition as it
 * arrives over the wire is a tree, which the text renders exactly. Undefined when the value has no JSON text.
 */
export function toolDigest(tool: McpToolDefinition, previous?: McpToolDefinition): string | undefined {
  const read: unknown[] = [
    tool.name,
    tool.title,
    tool.description,
    tool.inputSchema,
    tool.outputSchema,
    tool.annotations,
  ];
  // A redefinition is scored against what it replaces: the same definition after another is another scan.
  if (previous !== undefined) {
    const before = toolDigest(previous);
    if (before === undefined) return undefined;
    read.push(before);
  }
  let text: string;
  try {
    text = JSON.stringify(read);
  } catch {
    return undefined; // a cycle or a bigint: built in process, not received; scanned without the cache
  }
  return `t:${createHash('sha256').update(text).digest('base64')}`;
}

/** The digest of one text scanned alone. */
export function textDigest(text: string): string {
  return `s:${createHash('sha256').update(JSON.stringify(text)).digest('base64')}`;
}
