/** The shape of one audit record: who called which tool, how it was approved, and how it ended. */
import type { HitlMode } from '../config/index.ts';
import type { RiskLevel } from '../risk/index.ts';

/** The approval decision the record carries. */
export type AuditDecision = 'allow' | 'deny' | 'ask';

/** How an elicitation (human approval prompt) ended. */
export type AuditElicitation =
  'accept' | 'decline' | 'cancel' | 'timeout' | 'unsupported' | 'disconnect' | 'invalid-state';

/** The call's risk context. */
export interface AuditRisk {
  /** The effective level that gated the call. */
  final: RiskLevel;
  server?: RiskLevel;
  publish?: RiskLevel;
  /** The floor override that fired, or null. */
  floorTrigger: string | null;
  /** True when the level was lowered one band for human-in-the-loop. */
  hitlMitigated: boolean;
}

/**
 * How the approval stages decided one call: the one record the call pipeline, the audit log and telemetry share.
 */
export interface ApprovalRecord {
  /** The tool's human-in-the-loop mode; null when the name resolved to no tool. */
  mode: HitlMode | null;
  /** `ask` means the human was asked; `elicitation` tells how that ended. */
  decision: AuditDecision;
  ruleId?: string;
  elicitation?: AuditElicitation;
  /** ISO time of the decision (when a human answered). */
  decidedAt?: string;
  /** Where the person was asked: the client's prompt, or the operators' approval inbox. */
  channel?: 'elicitation' | 'console';
  /** The operator who answered in the approval inbox, and the reason they gave. */
  approver?: string;
  approverReason?: string;
}

/** How the call was approved (the audit log's name for the shared approval record). */
export type AuditApproval = ApprovalRecord;

/** A request the upstream put to the calling client during the call, and how it ended. */
export interface AuditUpstreamRequest {
  kind: 'elicitation' | 'sampling' | 'roots';
  /**
   * An elicitation: the client's action, `refused` when the gateway declined it because the caller's client cannot
   * elicit, or `failed` (timeout, disconnect). Sampling: `answered`, `refused` by the gateway (its review found
   * injection under `poisoning: block` or tool use, or the caller's client cannot sample), or `failed`. Roots (a
   * 2026-era upstream's relayed round only): `answered`.
   */
  outcome: 'accept' | 'decline' | 'cancel' | 'answered' | 'refused' | 'failed';
}

/**
 * What the response scan (`guards.responseScan`) found in the call's result: rule ids and where they matched,
 * never the text. Absent when the scan is off, or found nothing and scanned everything.
 */
export interface AuditResponseScan {
  mode: 'advisory' | 'enforce';
  /** `withheld`: the client got RESPONSE_WITHHELD instead; `annotated`: it got the result; `passed`: clean. */
  action: 'withheld' | 'annotated' | 'passed';
  findings: { patternId: string; field: string; offset: number; length: number }[];
  scannedChars: number;
  /** Why the rest of the result was not scanned (`char-cap`, `value-cap`). */
  unscanned?: string;
}

/** A call to a tool of an upstream MCP server. */
export interface AuditUpstreamTarget {
  origin: 'upstream';
  upstreamId: string;
  upstreamTool: string;
}

/** A call to a local Safe Tool Spec tool. */
export interface AuditLocalTarget {
  origin: 'local';
  toolId: string;
  category: string | null;
  /** The resolved toolSafety block the call ran under. */
  toolSafety: unknown;
}

/**
 * A call to a name that resolved to no exposed tool: unknown, or withheld (its upstream is down, or its
 * definition awaits re-review). Recorded so that probing for tools leaves a trace.
 */
export interface AuditUnresolvedTarget {
  origin: 'unresolved';
  /** The upstream of a withheld tool, when the gateway knows it. */
  upstreamId: string | null;
}

/**
 * An action through the admin API (approve, revoke, restore, …), or one refused there: `principal` is the actor,
 * `alias` names the action (`admin.ledger.revoke`), `arguments` holds the request body.
 */
export interface AuditAdminTarget {
  origin: 'admin';
  /** What was acted on, e.g. `upstream::tool`; null when the request named nothing. */
  target: string | null;
  /** The reason the actor gave; null when none. */
  reason: string | null;
}

/**
 * A `prompts/get` or `resources/read` routed to an upstream: `alias` is the prompt's exposed name or the
 * resource's URI, `arguments` the prompt's arguments (`{}` for a resource).
 */
export interface AuditSurfaceTarget {
  origin: 'prompt' | 'resource';
  /** The upstream that was asked; null when the name or URI matched nothing the caller may read. */
  upstreamId: string | null;
}

/** Fields every record carries, whatever the tool's origin. */
export interface AuditRecordCommon {
  /** A unique id (UUID). */
  id: string;
  /** ISO 8601 time the call was received. */
  time: string;
  principal: string | null;
  /** The profile a tool call came through (`default` for /mcp); absent on admin actions and older records. */
  profile?: string;
  sessionId: string | null;
  /** The exposed tool name the client called. */
  alias: string;
  /** Null when the name resolved to no tool. */
  risk: AuditRisk | null;
  approval: AuditApproval;
  /** Requests the upstream put to the client during the call, in order; absent when there were none. */
  upstreamRequests?: AuditUpstreamRequest[];
  /** What the response scan found in the result; absent when it is off or had nothing to say. */
  responseScan?: AuditResponseScan;
  /** The call arguments, secret-masked. */
  arguments: unknown;
  /**
   * `INPUT_REQUIRED`: one round of a call whose 2026-era upstream asked the client for input; the upstream ran and
   * the call goes on in the client's retry, which has its own row (none when the client abandons the call).
   */
  outcome: 'OK' | 'ERROR' | 'INPUT_REQUIRED';
  /** A stable error code when outcome is ERROR. */
  errorCode?: string;
  durationMs: number;
  traceId: string | null;
}

/** One audit record. */
export type AuditRecord = AuditRecordCommon & AuditTarget;

/** What was called. */
export type AuditTarget =
  AuditUpstreamTarget | AuditLocalTarget | AuditUnresolvedTarget | AuditAdminTarget | AuditSurfaceTarget;

/** What the gateway hands to the log: a record whose id and time may be left to the log. */
export type AuditInput = Omit<AuditRecordCommon, 'id' | 'time'> & {
  id?: string;
  time?: string;
} & AuditTarget;

/** A record as read back from the log, with its position and chain digests. */
export interface AuditEntry {
  seq: number;
  prevDigest: string;
  digest: string;
  record: AuditRecord;
}
