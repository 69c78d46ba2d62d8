/** The admin API answers the console reads (only the fields it shows; docs/operations.md has the full shapes). */
import type { AuditEntry } from '../audit/index.ts';

/** One upstream of `GET /servers`. */
export interface ServerView {
  id: string;
  transport: string;
  state: string;
  era: string | null;
  protocolVersion: string | null;
  lastError: string | null;
  lastStderr: string[];
  rejectedTools: { name: string; reason: string }[];
  toolCount: number;
  exposedToolCount: number;
  risk: {
    level: string;
    totalScore: number;
    axisScores: Record<string, number>;
    floorTrigger: string | null;
  } | null;
}

/** One poisoning finding with the text of the field it points into (null when that text is not shown). */
export interface FindingView {
  patternId: string;
  matchedText: string;
  offset: number;
  length?: number;
  detail?: string;
  fieldPath: string;
  fieldText: string | null;
}

/** One tool of `GET /tools`. */
export interface ToolView {
  alias: string;
  origin: 'upstream' | 'local';
  upstream: string | null;
  upstreamTool: string | null;
  localToolId: string | null;
  /** `user`: the spec lives in `tools.dir` and the studio can edit it; `bundled`: the shipped catalog. */
  localSource: 'bundled' | 'user' | null;
  exposed: boolean;
  withheldReason: string | null;
  withheldDetail: string | null;
  title: string | null;
  description: string | null;
  annotations: Record<string, unknown> | null;
  hitl: string;
  risk: {
    server: string | null;
    publish: string | null;
    final: string | null;
    effective: string | null;
    floorTrigger: string | null;
    hitlMitigated: boolean;
  };
  axes: { server: Record<string, number> | null; publish: Record<string, number> | null };
  poisoning: { clean: boolean; matches: FindingView[] } | null;
  fingerprint: { hash: string; profile: string; status: string } | null;
  findings: { guard: string; code: string; message: string }[];
}

/** `GET /overview`. */
export interface OverviewView {
  windowMinutes: number;
  calls: number;
  denials: number;
  errors: number;
  capped: boolean;
  callsPerSecond: number;
  pendingReviews: number;
  revokedTools: number;
}

/** `GET /audit`. */
export interface AuditPageView {
  entries: AuditEntry[];
  nextCursor: string | null;
}

/** `GET /audit/verify`. */
export type ChainVerdictView =
  | { ok: true; rows: number; headSeq: number; headDigest: string | null }
  | { ok: false; firstBadId: string | null; seq: number; problem: string; detail: string };

/** One record of `GET /ledger` (digests only). */
export interface LedgerRecordView {
  upstream: string;
  tool: string;
  hash: string;
  status: string;
  firstSeenAt: number;
  curatedAt: number | null;
}

/** One side of a ledger review: a stored definition, or the note saying why there is none. */
export type ReviewedDefinitionView =
  | { hash: string; stored: true; definition: Record<string, unknown> }
  | { hash: string | null; stored: false; note: string };

/** `GET /ledger/:key`. */
export interface LedgerReviewView {
  record: {
    key: string;
    upstream: string;
    tool: string;
    status: string;
    firstSeenAt: number;
    curatedAt: number | null;
    changed: boolean;
    current: ReviewedDefinitionView;
    approved: ReviewedDefinitionView;
  };
  tools: {
    alias: string;
    exposed: boolean;
    withheldReason: string | null;
    poisoning: { clean: boolean; matches: Omit<FindingView, 'fieldText'>[] } | null;
    findings: { guard: string; code: string; message: string }[];
  }[];
}

/** `GET /ledger/:key/diff` (the part the page shows beside its own rows). */
export interface LedgerDiffView {
  diff: { descriptionDiff: string | null } | null;
}

/** One entry of `GET /approvals`. */
export interface ApprovalView {
  id: string;
  createdAt: number;
  expiresAt: number;
  status: 'pending' | 'approved' | 'declined';
  principal: string;
  alias: string;
  upstream: string | null;
  tool: string;
  origin: string;
  risk: string;
  arguments: unknown;
  prompt: string;
  ruleId?: string;
  era: string;
  answer?: { actor: string; reason: string; at: number };
}
