/**
 * ledger: fingerprints of upstream tools, prompts, resources, resource templates and server instructions, and the
 * fingerprint state machine. Canonical JSON (keys sorted at every depth,
 * compact, raw UTF-8) hashed with SHA-256; the Portcullis profile covers name, title, description,
 * inputSchema, outputSchema and annotations (docs/rules/ledger.md), and a reference-compatible `hashMcpTool`
 * is kept for interoperability. A changed definition is withheld (AWAITING_REREVIEW) until an operator
 * approves it; REVOKED withholds a tool for good. Pure functions plus a service over a LedgerStore.
 */

export { createLedger } from './ledger-service.ts';
export { applyLedgerAction, type LedgerAction } from './ledger-actions.ts';
export type { Ledger } from './ledger-service.ts';
export type { LedgerStatus } from './types.ts';
export type { FingerprintableSurface } from './fingerprint.ts';
export { ledgerKey, parseLedgerKey, reviewDiff, reviewLedgerRecord } from './ledger-review.ts';
export type { LedgerReview } from './ledger-review.ts';
