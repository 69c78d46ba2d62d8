/** The gateway's view of every tool it may publish, and the seams other domains plug into. */
import type { CallToolResult, Tool } from '@modelcontextprotocol/server';
import type { HitlMode } from '../config/index.ts';

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
  | 'input-schema-unusable';

/** One tool the gateway knows, exposed or withheld. */
export interface ExposedTool {
  /** The name on /mcp. */
  alias: string;
  origin: 'upstream' | 'local';
  /** Upstream id and the upstream's own tool name (origin upstream). */
  upstream?: string;
  upstreamTool?: string;
  /** The composition that exposes it (implicit ones are `upstream:<id>`). */
  composition?: string;
  /** Local (Safe Tool Spec) tool id (origin local). */
  localToolId?: string;
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

/** What the risk engine concluded about one tool. Plain data for the admin API and the audit log. */
export interface ToolGovernance {
  risk?: Record<string, unknown> & { final?: string; effective?: string };
  poisoning?: { clean: boolean; matches: unknown[] };
  fingerprint?: { hash: string; profile: string; status: string };
  /** The Safe Tool Spec `toolSafety` block of a local tool. */
  toolSafety?: unknown;
  category?: string;
  /** The approval prompt template of a local tool (humanInTheLoop.promptTemplate). */
  promptTemplate?: string;
  /** Why the tool's composition was refused (cap breach, R1–R3), when it was. */
  compositionRefusal?: string[];
}

/** Local tools (Safe Tool Specs) as the gateway sees them. */
export interface LocalToolProvider {
  /** Every local tool with its MCP definition; `active` false keeps it withheld. */
  list(): LocalTool[];
  /** Runs a local tool; the result is already masked. */
  run(toolId: string, args: Record<string, unknown>, signal: AbortSignal): Promise<CallToolResult>;
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
