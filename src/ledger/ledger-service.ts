// The ledger service: the state machine over a LedgerStore, with an injected clock.
import { jsonShapeExcess, MAX_JSON_DEPTH } from '../audit/index.ts';
import { fingerprintTool, toolFingerprintContent } from './fingerprint.ts';
import type { Fingerprint, FingerprintableTool } from './fingerprint.ts';
import {
  approveFingerprint,
  checkFingerprint,
  isExposable,
  markFingerprintPublished,
  restoreFingerprint,
  revokeFingerprint,
} from './state-machine.ts';
import type { ApproveResult, FingerprintCheck, RestoreResult, RevokeResult } from './state-machine.ts';
import type { LedgerRecord, LedgerStore } from './types.ts';

/**
 * The largest canonical definition the ledger keeps beside its digest (256 KiB of UTF-8); a larger one, or one
 * nested deeper than the JSON bounds (64 levels), is fingerprinted as always but stored as null.
 */
export const MAX_STORED_DEFINITION_BYTES = 256 * 1024;

/** Fingerprint bookkeeping for every upstream tool. */
export interface Ledger {
  /** Checks an already computed fingerprint and stores the outcome (NEW and MISMATCH write; UNCHANGED does not). */
  check(
    upstream: string,
    tool: string,
    fingerprint: Fingerprint & { readonly definition?: string | null },
  ): FingerprintCheck;
  /** Fingerprints a live definition with the Portcullis profile, then checks it. */
  checkTool(upstream: string, definition: FingerprintableTool): FingerprintCheck;
  /** Approves the stored definition; with `expectedHash`, only if it is still the stored one. */
  approve(upstream: string, tool: string, expectedHash?: string): ApproveResult;
  /** Revokes a tool for good. */
  revoke(upstream: string, tool: string): RevokeResult;
  /** Lifts a revocation: the tool awaits re-review of its current definition. */
  restore(upstream: string, tool: string): RestoreResult;
  /** Stamps `publishedAt`; undefined when there is no record. */
  markPublished(upstream: string, tool: string): LedgerRecord | undefined;
  /** True when the tool's record is ACTIVE. */
  isExposable(upstream: string, tool: string): boolean;
  get(upstream: string, tool: string): LedgerRecord | undefined;
  list(): LedgerRecord[];
}

/** Creates the ledger service over a store; `clock` returns epoch milliseconds. */
export function createLedger(store: LedgerStore, clock: () => number): Ledger {
  const check = (
    upstream: string,
    tool: string,
    fingerprint: Fingerprint & { readonly definition?: string | null },
  ): FingerprintCheck => {
    const stored = store.get(upstream, tool);
    const result = checkFingerprint(stored, { upstream, tool, ...fingerprint }, clock());
    if (result.record !== stored) store.put(result.record);
    return result;
  };
  return {
    check,
    checkTool(upstream, definition) {
      const content = toolFingerprintContent(definition);
      // Deeper than the JSON bounds, a definition could not be diffed or served safely: fingerprinted, not kept.
      const kept =
        Buffer.byteLength(content, 'utf8') <= MAX_STORED_DEFINITION_BYTES &&
        jsonShapeExcess(definition, MAX_JSON_DEPTH, Number.POSITIVE_INFINITY) !== 'too-deep'
          ? content
          : null;
      return check(upstream, definition.name, { ...fingerprintTool(definition), definition: kept });
    },
    approve(upstream, tool, expectedHash) {
      const result = approveFingerprint(store.get(upstream, tool), clock(), expectedHash);
      if (result.outcome === 'APPROVED') store.put(result.record);
      return result;
    },
    revoke(upstream, tool) {
      const result = revokeFingerprint(store.get(upstream, tool), clock());
      if (result.outcome === 'REVOKED') store.put(result.record);
      return result;
    },
    restore(upstream, tool) {
      const result = restoreFingerprint(store.get(upstream, tool), clock());
      if (result.outcome === 'RESTORED') store.put(result.record);
      return result;
    },
    markPublished(upstream, tool) {
      const stored = store.get(upstream, tool);
      if (stored === undefined) return undefined;
      const record = markFingerprintPublished(stored, clock());
      store.put(record);
      return record;
    },
    isExposable: (upstream, tool) => isExposable(store.get(upstream, tool)),
    get: (upstream, tool) => store.get(upstream, tool),
    list: () => store.list(),
  };
}
