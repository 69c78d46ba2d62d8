/**
 * audit: the tamper-evident audit log of every tool call. Records are appended into a SHA-256 hash chain over
 * their canonical JSON (journaled per event-loop turn so they are durable before the call is answered, then
 * stored in batches), queried with filters and cursors, exported as JSONL, and verified for edited, deleted or
 * reordered rows.
 */
export { createAuditLog, entryJsonLine } from './audit-log.ts';
export { adminActionInput, type AdminAction } from './admin-action.ts';
export { createAuditWriter } from './audit-writer.ts';
export type { AuditWriter } from './audit-writer.ts';
export type { AuditLog, AuditQuery, JournalRecovery } from './audit-log.ts';
export { parseAuditAnchor, verifyAuditChain } from './verify.ts';
export type { AuditAnchor } from './verify.ts';

export { jsonShapeExcess, MAX_JSON_DEPTH, MAX_JSON_NODES, MAX_RESULT_DEPTH } from './json-shape.ts';

export type {
  AuditRecord,
  AuditInput,
  AuditEntry,
  ApprovalRecord,
  AuditUpstreamRequest,
  AuditResponseScan,
  AuditTarget,
} from './record.ts';
