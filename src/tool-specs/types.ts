/** The Safe Tool Spec document model (safe-tool-spec.md §2–§12) after parsing and defaulting. */
import type { HitlMode } from './deps.ts';

/** A param type as stored in the document (upper-case, §6.2). */
export type ParamType = 'STRING' | 'INTEGER' | 'NUMBER' | 'BOOLEAN' | 'OBJECT' | 'ARRAY';

/** One declared argument (§6.1); optional fields stay absent when the document omits them. */
export interface ToolParamSpec {
  name: string;
  description?: string | null;
  required: boolean;
  type: ParamType;
  /** The string the Local Pass runs the tool with, parsed into `type` first (§6.3). */
  testValue?: string | null;
}

/** One static variable entry: a single-key object, kept in document order (§7.1). */
export type StaticVariableEntry = Readonly<Record<string, string>>;

/** The author's declared widening of the baseline (§10.1, reference-rules §8.1); null and absent inherit. */
export interface SandboxOverrides {
  addAllowClasses?: string[] | null;
  removeAllowClasses?: string[] | null;
  addDenyClasses?: string[] | null;
  removeDenyClasses?: string[] | null;
  /** Any letter case on disk; the resolver lower-cases then validates it once (D4). */
  networkMode?: string | null;
  hostsAllow?: string[] | null;
  fileRead?: boolean | null;
  fileWrite?: boolean | null;
  fsBasePath?: string | null;
  destructive?: boolean | null;
}

/** The optional per-tool approval block. */
export interface HumanInTheLoop {
  mode: HitlMode;
  promptTemplate?: string | null;
}

/** A parsed Safe Tool Spec with the §3 defaults applied. */
export interface SafeToolSpec {
  /** UUID v5 of `name` under TOOL_ID_NAMESPACE unless the document gives one (§4.1). */
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
  /** The stored posture snapshot, informational only; Portcullis recomputes it (D2). */
  toolSafety: Record<string, unknown>;
  draft: boolean;
  /** Null when the document has none; set when the spec is first persisted (§12.2). */
  createTimestamp: number | null;
  updateTimestamp: number | null;
  humanInTheLoop: HumanInTheLoop | null;
  /** Unknown top-level fields, preserved for the round trip (§14). */
  extensions: Record<string, unknown>;
  /** Top-level keys in document order, so serialization keeps the author's layout. */
  keyOrder: string[];
  /** Where the document came from (a file path), for messages; null for in-memory documents. */
  source: string | null;
}

/** Lifecycle states (§11.1); TEST_FAILED is reserved and never returned. */
export type LifecycleState = 'DRAFT' | 'MISSING_REQUIREMENTS' | 'ACTIVE' | 'TEST_FAILED';
