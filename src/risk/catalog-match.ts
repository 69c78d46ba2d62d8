// Recognising a configured server in the catalog (pure): explicit id, else package name, else host pattern.
import type { CatalogEntry } from './catalog-types.ts';
import { extractHost } from './host-class.ts';
import type { TransportKind } from './host-class.ts';
import { matchesHostPattern } from '../shared/index.ts';

/** What the matcher reads from an upstream's configuration. */
export interface CatalogMatchTarget {
  /** `catalog: <id>` from the config; wins over everything else. */
  readonly catalogId?: string | undefined;
  readonly transport: TransportKind;
  readonly command?: string | undefined;
  readonly args?: readonly string[] | undefined;
  readonly url?: string | undefined;
}

/** The matcher's answer. */
export type CatalogMatch =
  | { readonly matched: true; readonly entry: CatalogEntry; readonly by: 'explicit' | 'package' | 'host' }
  | { readonly matched: false; readonly reason: 'no_match' | 'unknown_catalog_id' };

const PATH_LIKE = /^(?:[A-Za-z]:)?[\\/]|^\.\.?[\\/]/;

/**
 * The package names a command-line token may stand for: the token; without an npm version (`pkg@1.2`,
 * `@scope/pkg@latest`), a PyPI pin (`pkg==1.2`) or an image tag or digest (`ghcr.io/o/img:tag`); the
 * package inside a `node_modules/` path; and the base name of a file path without `.exe`/`.cmd`/`.js`.
 */
export function packageCandidates(token: string): string[] {
  const candidates = new Set<string>([token]);
  const normalized = token.replaceAll('\\', '/');
  const modules = normalized.lastIndexOf('node_modules/');
  if (modules >= 0) {
    const parts = normalized.slice(modules + 'node_modules/'.length).split('/');
    const name = parts[0]?.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
    if (name !== undefined && name !== '') candidates.add(name);
  }
  if (PATH_LIKE.test(token)) {
    const base = normalized.slice(normalized.lastIndexOf('/') + 1).replace(/\.(?:exe|cmd|js|mjs|cjs)$/i, '');
    if (base !== '') candidates.add(base);
  }
  const versionAt = token.indexOf('@', token.startsWith('@') ? 1 : 0);
  if (versionAt > 0) candidates.add(token.slice(0, versionAt));
  const pin = token.search(/[=<>~!]=/);
  if (pin > 0) candidates.add(token.slice(0, pin));
  const lastSlash = token.lastIndexOf('/');
  const tag = token.indexOf(':', lastSlash + 1);
  if (tag > 0 && lastSlash >= 0) candidates.add(token.slice(0, tag));
  return [...candidates];
}

/**
 * Finds the catalog entry of a configured server: an explicit `catalog` id wins (an unknown id is reported,
 * not guessed around); else the first entry whose package names appear in a stdio command line; else the
 * first entry with a host pattern matching an HTTP URL's host (shared/host-pattern.ts says how patterns match).
 */
export function matchCatalogEntry(
  catalog: readonly CatalogEntry[],
  target: CatalogMatchTarget,
): CatalogMatch {
  if (target.catalogId !== undefined) {
    const entry = catalog.find((candidate) => candidate.id === target.catalogId);
    return entry === undefined
      ? { matched: false, reason: 'unknown_catalog_id' }
      : { matched: true, entry, by: 'explicit' };
  }
  if (target.transport === 'stdio') {
    const tokens = [target.command, ...(target.args ?? [])].filter(
      (token): token is string => token !== undefined,
    );
    const offered = new Set(tokens.flatMap(packageCandidates));
    const entry = catalog.find((candidate) =>
      (candidate.match.packages ?? []).some((name) => offered.has(name)),
    );
    return entry === undefined
      ? { matched: false, reason: 'no_match' }
      : { matched: true, entry, by: 'package' };
  }
  const host = extractHost(target.url);
  if (host === null) return { matched: false, reason: 'no_match' };
  const entry = catalog.find((candidate) =>
    (candidate.match.hosts ?? []).some((pattern) => matchesHostPattern(host, pattern)),
  );
  return entry === undefined ? { matched: false, reason: 'no_match' } : { matched: true, entry, by: 'host' };
}
