/** The gateway's view of every tool it may publish, and the seams other domains plug into. */
import type { CallToolResult, Tool } from '@modelcontextprotocol/server';
import type { GuardId, HitlMode } from '../config/index.ts';
import type { LedgerStatus } from '../ledger/index.ts';
import type { ToolMatch } from '../poisoning/index.ts';
import type { LocalToolRiskEvaluation, RiskLevel, ToolRiskEvaluation } from '../risk/index.ts';
import type { ToolArguments } from '../shared/index.ts';

/** Why a known tool is not advertised. A withheld tool answers as unknown, never as forbidden. */
export type WithheldReason =
  | 'upstream-down'
  | 'excluded'
  | 'composition-disabled'
  | 'composition-refused'
  | 'exposure-mode'
  | 'fingerprint-awaiting-rereview'
  | 'fingerprint-revoked'
  | 'poisoning-blocked'
  | 'alias-conflict'
  | 'local-not-active'
  | 'input-schema-unusable'
  | 'guard-failed'
  /** A call's answer (not a tool) withheld by the response scan. */
  | 'response-injection';

/** Fields every known tool has, whatever serves it. */
interface ExposedToolBase {
  /** The name on /mcp. */
  alias: string;
  /** The definition as advertised (name = alias, description override applied). */
  definition: Tool;
  /** The definition as the upstream (or spec) gave it. */
  source: Tool;
  hitl: HitlMode;
  exposed: boolean;
  withheldReason?: WithheldReason;
  /** What an operator reads about the withholding, when the reason alone does not say it. */
  withheldDetail?: string;
  /** Risk, scan and fingerprint facts attached by the governance stage (risk engine). */
  governance?: ToolGovernance;
}

/** A tool an upstream MCP server serves. The `never` fields let readers of the union test them without narrowing. */
export interface UpstreamExposedTool extends ExposedToolBase {
  origin: 'upstream';
  /** Upstream id and the upstream's own tool name. */
  upstream: string;
  upstreamTool: string;
  /** The composition that exposes it (implicit ones are `upstream:<id>`). */
  composition: string;
  localToolId?: never;
}

/** A tool a Safe Tool Spec defines, run in the sandbox. */
export interface LocalExposedTool extends ExposedToolBase {
  origin: 'local';
  /** Local (Safe Tool Spec) tool id. */
  localToolId: string;
  upstream?: never;
  upstreamTool?: never;
  composition?: never;
}

/** One tool the gateway knows, exposed or withheld. */
export type ExposedTool = UpstreamExposedTool | LocalExposedTool;

/** A local tool's risk: the risk engine's evaluation of its sandbox level (no floors apply to it). */
export interface LocalToolRisk extends LocalToolRiskEvaluation {
  readonly floorTrigger: null;
  readonly server?: never;
  readonly publish?: never;
}

/** What the risk engine concluded about a tool: its own result types, one per origin. */
export type ToolRisk = ToolRiskEvaluation | LocalToolRisk;

/** The sandbox risk of a Safe Tool Spec, as the tool-spec resolver scored it. */
export interface SandboxRisk {
  level: RiskLevel;
  reasons: readonly string[];
}

/** Something a guard noticed about a tool without (or before) withholding it. */
export interface GuardFinding {
  guard: GuardId;
  /** A stable short code, e.g. a pattern id or a shadowing rule. */
  code: string;
  message: string;
}

/** What the risk engine concluded about one tool. Plain data for the admin API and the audit log. */
export interface ToolGovernance {
  risk?: ToolRisk;
  poisoning?: { clean: boolean; matches: ToolMatch[] };
  fingerprint?: { hash: string; profile: string; status: LedgerStatus };
  /** The sandbox risk of a local tool, the input of its tool risk. */
  sandboxRisk?: SandboxRisk;
  /** The Safe Tool Spec `toolSafety` block of a local tool. */
  toolSafety?: unknown;
  category?: string;
  /** A local tool's Safe Tool Spec tags (profiles select tools by tag). */
  tags?: readonly string[];
  /** The approval prompt template of a local tool (humanInTheLoop.promptTemplate). */
  promptTemplate?: string;
  /** Why the tool's composition was refused (cap breach, R1–R3), when it was. */
  compositionRefusal?: string[];
  /** What guards noticed, in guard order (advisory guards only annotate). */
  findings?: GuardFinding[];
}

/** Local tools (Safe Tool Specs) as the gateway sees them. */
export interface LocalToolProvider {
  /** Every local tool with its MCP definition; `active` false keeps it withheld. */
  list(): LocalTool[];
  /** Runs a local tool; the result is already masked. */
  run(toolId: string, args: ToolArguments, signal: AbortSignal): Promise<CallToolResult>;
  /** Subscribes to changes of the list; returns an unsubscribe function. */
  onChange(listener: () => void): () => void;
}

/** One local tool. */
export interface LocalTool {
  toolId: string;
  definition: Tool;
  active: boolean;
  hitl: HitlMode;
  governance: ToolGovernance;
}
