/** The bundled catalog of Safe Tool Specs (`catalog/tools/*.json`) with each spec's lifecycle state. */
import { fileURLToPath } from 'node:url';
import type { PortcullisError } from '../errors/index.ts';
import type { EnvLookup } from './deps.ts';
import { loadSpecDirectory, type SpecDirectory } from './directory.ts';
import { lifecycleOf, type LifecycleStatus } from './lifecycle.ts';
import { runLocalPass, type LocalPassDeps } from './local-pass.ts';
import type { SafeToolSpec } from './types.ts';

/** The directory of the bundled specs (`catalog/tools/` at the repository root). */
export const BUNDLED_CATALOG_DIR = fileURLToPath(new URL('../../catalog/tools/', import.meta.url));

/** One bundled spec and whether the gateway may publish it now. */
export interface BundledSpecEntry {
  spec: SafeToolSpec;
  status: LifecycleStatus;
  /** ACTIVE and, when verification ran, its Local Pass succeeded. */
  publishable: boolean;
  /** Set when a start-up Local Pass ran and failed; the entry is then not publishable. */
  localPassError?: PortcullisError;
}

/** The bundled catalog as loaded. */
export interface BundledCatalog {
  entries: BundledSpecEntry[];
  failures: SpecDirectory['failures'];
  conflicts: SpecDirectory['conflicts'];
}

/** Options of loadBundledCatalog. */
export interface LoadCatalogOptions {
  /** Another catalog directory (tests, packaging). */
  dir?: string;
  /** Env lookup for the requirement check; default: nothing is set. */
  lookup?: EnvLookup;
  /** When given, every non-draft spec runs its Local Pass now, and a failure makes it not publishable. */
  verify?: LocalPassDeps;
}

/**
 * Loads the bundled specs. Pure-compute specs ship `draft: false` and are publishable at start; specs that
 * need the network, files or a secret ship as drafts until an operator publishes them.
 */
export async function loadBundledCatalog(options: LoadCatalogOptions = {}): Promise<BundledCatalog> {
  const lookup = options.lookup ?? ((): undefined => undefined);
  const directory = await loadSpecDirectory(options.dir ?? BUNDLED_CATALOG_DIR);
  const entries: BundledSpecEntry[] = [];
  for (const spec of directory.specs) {
    const status = lifecycleOf(spec, lookup);
    const entry: BundledSpecEntry = { spec, status, publishable: status.state === 'ACTIVE' };
    if (entry.publishable && options.verify !== undefined) {
      const pass = await runLocalPass(spec, options.verify, { categorySource: 'builtin' });
      if (!pass.ok) {
        entry.publishable = false;
        entry.localPassError = pass.error;
      }
    }
    entries.push(entry);
  }
  return { entries, failures: directory.failures, conflicts: directory.conflicts };
}
