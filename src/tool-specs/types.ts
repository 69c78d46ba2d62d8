/** The Safe Tool Spec document model (docs/rules/tool-specs.md) after parsing and defaulting. */
import type { HitlMode } from './deps.ts';

/** A param type as stored in the document (upper-case, R-SPEC-3). */
export type ParamType = 'STRING' | 'INTEGER' | 'NUMBER' | 'BOOLEAN' | 'OBJECT' | 'ARRAY';

/** One declared argument (R-SPEC-3); optional fields stay absent when the document omits them. */
export interface ToolParamSpec {
  name: string;
  description?: string | null;
  required: boolean;
  type: ParamType;
  /** The string the Local Pass runs the tool with, parsed into `type` first (R-SPEC-3). */
  testValue?: string | null;
}

/** One static variable entry: a single-key object, kept in document order. */
export type StaticVariableEntry = Readonly<Record<string, string>>;

/** The author's declared widening of the baseline (R-SANDBOX-5); null and absent inherit. */
export interface SandboxOverrides {
  addAllowClasses?: string[] | null;
  removeAllowClasses?: string[] | null;
  addDenyClasses?: string[] | null;
  removeDenyClasses?: string[] | null;
  /** Any letter case on disk; the resolver lower-cases then validates it once (R-SANDBOX-5). */
  networkMode?: string | null;
  hostsAllow?: string[] | null;
  fileRead?: boolean | null;
  fileWrite?: boolean | null;
  fsBasePath?: string | null;
  destructive?: boolean | null;
  /** Hands secrets to tool code as plaintext instead of handles; raises the Risk Level (docs/security.md). */
  secretsInCode?: boolean | null;
}

/** The optional per-tool approval block. */
export interface HumanInTheLoop {
  mode: HitlMode;
  promptTemplate?: string | null;
}

/** A parsed Safe Tool Spec with the defaults applied (R-SPEC-1). */
export interface SafeToolSpec {
  /** UUID v5 of `name` under TOOL_ID_NAMESPACE unless the document gives one (R-SPEC-2). */
  toolId: string;
  name: string;
  description: string;
  category: string | null;
  tags: string[];
  params: ToolParamSpec[];
  staticVariables: StaticVariableEntry[];
  code: string;
  codeType: 'Javascript';
  sandboxOverrides: SandboxOverrides;
  /** The stored posture snapshot, informational only; Portcullis recomputes it (R-SPEC-9). */
  toolSafety: Record<string, unknown>;
  draft: boolean;
  /** Null when the document has none; set when the spec is first persisted (R-SPEC-6). */
  createTimestamp: number | null;
  updateTimestamp: number | null;
  humanInTheLoop: HumanInTheLoop | null;
  /** Unknown top-level fields, preserved for the round trip (R-SPEC-5). */
  extensions: Record<string, unknown>;
  /** Top-level keys in document order, so serialization keeps the author's layout. */
  keyOrder: string[];
  /** Where the document came from (a file path), for messages; null for in-memory documents. */
  source: string | null;
}

/** Lifecycle states (R-SPEC-12); TEST_FAILED is reserved and never returned. */
export type LifecycleState = 'DRAFT' | 'MISSING_REQUIREMENTS' | 'ACTIVE' | 'TEST_FAILED';
