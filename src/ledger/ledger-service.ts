// The ledger service: the state machine over a LedgerStore, with an injected clock.
import { jsonShapeExcess, MAX_JSON_DEPTH } from '../audit/index.ts';
import {
  SURFACE_FINGERPRINT_PROFILES,
  surfaceFingerprintContent,
  surfaceLedgerName,
  TOOL_FINGERPRINT_PROFILE,
  toolFingerprintContent,
} from './fingerprint.ts';
import type { Fingerprint, FingerprintableSurface, FingerprintableTool } from './fingerprint.ts';
import { sha256Hex } from '../shared/index.ts';
import {
  approveFingerprint,
  checkFingerprint,
  isExposable,
  markFingerprintPublished,
  restoreFingerprint,
  revokeFingerprint,
} from './state-machine.ts';
import type { ApproveResult, FingerprintCheck, RestoreResult, RevokeResult } from './state-machine.ts';
import type { LedgerKind, LedgerRecord, LedgerStore } from './types.ts';

/**
 * The largest canonical definition the ledger keeps beside its digest (256 KiB of UTF-8); a larger one, or one
 * nested deeper than the JSON bounds (64 levels), is fingerprinted as always but stored as null.
 */
export const MAX_STORED_DEFINITION_BYTES = 256 * 1024;

/**
 * Fingerprint bookkeeping for every upstream tool, prompt, resource, resource template and set of server
 * instructions. `tool` names the item within its `kind` (default `tool`); the kind is part of the key.
 */
export interface Ledger {
  /** Checks an already computed fingerprint and stores the outcome (NEW and MISMATCH write; UNCHANGED does not). */
  check(
    upstream: string,
    tool: string,
    fingerprint: Fingerprint & { readonly definition?: string | null },
    kind?: LedgerKind,
  ): FingerprintCheck;
  /** Fingerprints a live definition with the Portcullis profile, then checks it. */
  checkTool(upstream: string, definition: FingerprintableTool): FingerprintCheck;
  /** Fingerprints a live prompt, resource, template or server instructions with its kind's profile, then checks it. */
  checkSurface(upstream: string, surface: FingerprintableSurface): FingerprintCheck;
  /** Approves the stored definition; with `expectedHash`, only if it is still the stored one. */
  approve(upstream: string, tool: string, expectedHash?: string, kind?: LedgerKind): ApproveResult;
  /** Revokes an item for good. */
  revoke(upstream: string, tool: string, kind?: LedgerKind): RevokeResult;
  /** Lifts a revocation: the item awaits re-review of its current definition. */
  restore(upstream: string, tool: string, kind?: LedgerKind): RestoreResult;
  /** Stamps `publishedAt`; undefined when there is no record. */
  markPublished(upstream: string, tool: string, kind?: LedgerKind): LedgerRecord | undefined;
  /** True when the item's record is ACTIVE. */
  isExposable(upstream: string, tool: string, kind?: LedgerKind): boolean;
  get(upstream: string, tool: string, kind?: LedgerKind): LedgerRecord | undefined;
  list(): LedgerRecord[];
}

/** The content kept beside a digest: none over the size cap or deeper than the JSON bounds. */
function keptContent(content: string, shape: unknown): string | null {
  // Deeper than the JSON bounds, a definition could not be diffed or served safely: fingerprinted, not kept.
  return Buffer.byteLength(content, 'utf8') <= MAX_STORED_DEFINITION_BYTES &&
    jsonShapeExcess(shape, MAX_JSON_DEPTH, Number.POSITIVE_INFINITY) !== 'too-deep'
    ? content
    : null;
}

/** Creates the ledger service over a store; `clock` returns epoch milliseconds. */
export function createLedger(store: LedgerStore, clock: () => number): Ledger {
  const check = (
    upstream: string,
    tool: string,
    fingerprint: Fingerprint & { readonly definition?: string | null },
    kind: LedgerKind = 'tool',
  ): FingerprintCheck => {
    const stored = store.get(upstream, tool, kind);
    const result = checkFingerprint(stored, { upstream, kind, tool, ...fingerprint }, clock());
    if (result.record !== stored) store.put(result.record);
    return result;
  };
  return {
    check,
    checkTool(upstream, definition) {
      // The canonical content is made once: it is both what the digest covers and what the ledger keeps.
      const content = toolFingerprintContent(definition);
      return check(upstream, definition.name, {
        hash: sha256Hex(content),
        profile: TOOL_FINGERPRINT_PROFILE,
        definition: keptContent(content, definition),
      });
    },
    checkSurface(upstream, surface) {
      const content = surfaceFingerprintContent(surface);
      const shape = surface.kind === 'server-instructions' ? surface.instructions : surface.item;
      const fingerprint = {
        hash: sha256Hex(content),
        profile: SURFACE_FINGERPRINT_PROFILES[surface.kind],
        definition: keptContent(content, shape),
      };
      return check(upstream, surfaceLedgerName(surface), fingerprint, surface.kind);
    },
    approve(upstream, tool, expectedHash, kind) {
      const result = approveFingerprint(store.get(upstream, tool, kind), clock(), expectedHash);
      if (result.outcome === 'APPROVED') store.put(result.record);
      return result;
    },
    revoke(upstream, tool, kind) {
      const result = revokeFingerprint(store.get(upstream, tool, kind), clock());
      if (result.outcome === 'REVOKED') store.put(result.record);
      return result;
    },
    restore(upstream, tool, kind) {
      const result = restoreFingerprint(store.get(upstream, tool, kind), clock());
      if (result.outcome === 'RESTORED') store.put(result.record);
      return result;
    },
    markPublished(upstream, tool, kind) {
      const stored = store.get(upstream, tool, kind);
      if (stored === undefined) return undefined;
      const record = markFingerprintPublished(stored, clock());
      store.put(record);
      return record;
    },
    isExposable: (upstream, tool, kind) => isExposable(store.get(upstream, tool, kind)),
    get: (upstream, tool, kind) => store.get(upstream, tool, kind),
    list: () => store.list(),
  };
}
