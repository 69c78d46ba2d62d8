/** Shared by the audit tests: a complete audit input. */
import type { AuditInput } from '../index.ts';

/** A complete audit input of an allowed upstream call; `over` replaces fields. */
export function auditInput(over: Partial<AuditInput> = {}): AuditInput {
  return {
    principal: 'alice',
    sessionId: 's-1',
    alias: 'files_read',
    origin: 'upstream',
    upstreamId: 'files',
    upstreamTool: 'read_file',
    risk: { final: 'L2', server: 'L1', publish: 'L2', floorTrigger: null, hitlMitigated: false },
    approval: { mode: 'AUTO_APPROVE', decision: 'allow' },
    arguments: { path: '/tmp/a.txt' },
    outcome: 'OK',
    durationMs: 12,
    traceId: '0af7651916cd43dd8448eb211c80319c',
    ...over,
  } as AuditInput;
}
