/** The audit record of an operator's action (admin API or CLI): who did what to which target, and why. */
import type { AuditInput } from './record.ts';

/** One admin action as the audit log keeps it. */
export interface AdminAction {
  /** The actor: `admin:<key name>`, an /mcp key principal, `local`, or `cli:<user>`. */
  actor: string;
  /** What was done, e.g. `ledger.revoke`. */
  action: string;
  target: string | null;
  reason: string | null;
  /** The request as given (masked by the log like every record). */
  body: unknown;
  outcome: 'OK' | 'ERROR';
  errorCode?: string;
  durationMs: number;
}

/** Builds the audit input of an admin action; a refusal for lack of role is recorded as a `deny`. */
export function adminActionInput(action: AdminAction): AuditInput {
  return {
    origin: 'admin',
    target: action.target,
    reason: action.reason,
    principal: action.actor,
    sessionId: null,
    alias: `admin.${action.action}`,
    risk: null,
    approval: { mode: null, decision: action.errorCode === 'FORBIDDEN' ? 'deny' : 'allow' },
    arguments: action.body,
    outcome: action.outcome,
    ...(action.errorCode === undefined ? {} : { errorCode: action.errorCode }),
    durationMs: Math.max(0, action.durationMs),
    traceId: null,
  };
}
