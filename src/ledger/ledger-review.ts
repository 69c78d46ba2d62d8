/**
 * What an operator reviews for one ledger record: its current and approved definitions (parsed from the stored
 * canonical JSON, or a note saying why there is none) and the diff between them. Pure.
 */
import { diffDefinitions, parseDefinition, type DefinitionDiff } from './definition-diff.ts';
import type { LedgerKind, LedgerRecord } from './types.ts';

/**
 * Shown where a record has no stored definition: it was recorded before definitions were kept (the usual case),
 * or its definition exceeded MAX_STORED_DEFINITION_BYTES.
 */
export const DEFINITION_NOT_STORED =
  'definition not stored (recorded before this version, over 256 KiB, or nested deeper than 64 levels)';

/** One side of a review: the digest and its definition, or the note saying why it is missing. */
export type ReviewedDefinition =
  | { hash: string; stored: true; definition: Record<string, unknown> }
  | { hash: string | null; stored: false; note: string };

/** The review of one ledger record. */
export interface LedgerReview {
  key: string;
  upstream: string;
  kind: LedgerKind;
  /** The item's name within its kind (a tool or prompt name, a URI, a URI template, `instructions`). */
  tool: string;
  status: LedgerRecord['status'];
  profile: string;
  firstSeenAt: number;
  curatedAt: number | null;
  publishedAt: number | null;
  previousHash: string | null;
  /** True when the current digest differs from the approved one (the tool awaits review, or was revoked). */
  changed: boolean;
  current: ReviewedDefinition;
  approved: ReviewedDefinition;
}

const SURFACE_KINDS: ReadonlySet<string> = new Set<LedgerKind>([
  'prompt',
  'resource',
  'resource-template',
  'server-instructions',
]);

/**
 * The key the admin API names a record by: `<upstream>::<tool>` for a tool, `<kind>:<upstream>::<name>` for a
 * prompt, resource, resource template or server instructions.
 */
export function ledgerKey(upstream: string, tool: string, kind: LedgerKind = 'tool'): string {
  return kind === 'tool' ? `${upstream}::${tool}` : `${kind}:${upstream}::${tool}`;
}

/**
 * Splits a ledger key at its first `::`; a single `:` before it separates the kind (upstream ids never hold a
 * colon, so a tool's key has none there). Undefined when malformed or of an unknown kind.
 */
export function parseLedgerKey(
  key: string,
): { upstream: string; tool: string; kind: LedgerKind } | undefined {
  const at = key.indexOf('::');
  if (at <= 0 || at + 2 >= key.length) return undefined;
  const head = key.slice(0, at);
  const tool = key.slice(at + 2);
  const colon = head.indexOf(':');
  if (colon === -1) return { upstream: head, tool, kind: 'tool' };
  const kind = head.slice(0, colon);
  const upstream = head.slice(colon + 1);
  if (!SURFACE_KINDS.has(kind) || upstream === '' || upstream.includes(':')) return undefined;
  return { upstream, tool, kind: kind as LedgerKind };
}

function side(hash: string | null, content: string | null | undefined): ReviewedDefinition {
  if (content !== null && content !== undefined && hash !== null) {
    return { hash, stored: true, definition: parseDefinition(content) };
  }
  return { hash, stored: false, note: DEFINITION_NOT_STORED };
}

/** Builds the review of a record. */
export function reviewLedgerRecord(record: LedgerRecord): LedgerReview {
  // A row from before this version knows no approved digest: an ACTIVE one was approved as it is now.
  const approvedHash = record.approvedHash ?? (record.status === 'ACTIVE' ? record.hash : null);
  const approvedContent =
    approvedHash === record.hash
      ? (record.approvedDefinition ?? record.definition)
      : record.approvedDefinition;
  const kind = record.kind ?? 'tool';
  return {
    key: ledgerKey(record.upstream, record.tool, kind),
    upstream: record.upstream,
    kind,
    tool: record.tool,
    status: record.status,
    profile: record.profile,
    firstSeenAt: record.firstSeenAt,
    curatedAt: record.curatedAt,
    publishedAt: record.publishedAt,
    previousHash: record.previousHash,
    changed: approvedHash !== record.hash,
    current: side(record.hash, record.definition),
    approved: side(approvedHash, approvedContent),
  };
}

/** The diff an operator reviews: approved → current; undefined when either side is not stored. */
export function reviewDiff(review: LedgerReview): DefinitionDiff | undefined {
  if (!review.current.stored || !review.approved.stored) return undefined;
  return diffDefinitions(
    JSON.stringify(review.approved.definition),
    JSON.stringify(review.current.definition),
  );
}
