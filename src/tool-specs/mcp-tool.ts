/**
 * Lowering a spec to its model-visible MCP tool (docs/rules/tool-specs.md#r-spec-10-the-model-visible-tool):
 * name, description and params
 * as JSON Schema only. code, staticVariables, sandboxOverrides, toolSafety, testValue and draft never cross.
 */
import type { HitlMode, McpToolDefinition, RiskLevel } from './deps.ts';
import type { ResolvedSandbox } from './resolver.ts';
import type { ParamType, SafeToolSpec } from './types.ts';

/** JSON Schema spelling of each param type (R-SPEC-3). */
export const JSON_SCHEMA_TYPES: Readonly<Record<ParamType, string>> = {
  STRING: 'string',
  INTEGER: 'integer',
  NUMBER: 'number',
  BOOLEAN: 'boolean',
  OBJECT: 'object',
  ARRAY: 'array',
};

/** The MCP `tools/list` entry of a spec: an MCP tool definition with the fields a spec always fills. */
export interface SpecMcpTool extends McpToolDefinition {
  name: string;
  title?: string;
  description: string;
  inputSchema: {
    type: 'object';
    properties: Record<string, { type: string; description?: string }>;
    required: string[];
    additionalProperties: false;
  };
  annotations?: {
    title?: string;
    readOnlyHint: boolean;
    destructiveHint: boolean;
    idempotentHint?: boolean;
    openWorldHint: boolean;
  };
}

/**
 * Builds the MCP tool of a spec. With the resolved posture, annotations are derived from it (read-only when
 * no writes and no network, destructive when destructive fs ops are allowed, open-world when fetch exists).
 */
export function toMcpTool(spec: SafeToolSpec, options: { resolved?: ResolvedSandbox } = {}): SpecMcpTool {
  const properties: SpecMcpTool['inputSchema']['properties'] = {};
  const required: string[] = [];
  for (const param of spec.params) {
    const property: { type: string; description?: string } = { type: JSON_SCHEMA_TYPES[param.type] };
    if (typeof param.description === 'string' && param.description !== '')
      property.description = param.description;
    properties[param.name] = property;
    if (param.required) required.push(param.name);
  }
  const tool: SpecMcpTool = {
    name: spec.name,
    description: spec.description,
    inputSchema: { type: 'object', properties, required, additionalProperties: false },
  };
  const title = spec.extensions['title'];
  if (typeof title === 'string' && title.trim() !== '') tool.title = title;
  if (options.resolved !== undefined) {
    const { policy } = options.resolved;
    tool.annotations = {
      readOnlyHint: !policy.fileWrite && policy.networkMode === 'blocked',
      destructiveHint: policy.destructive,
      openWorldHint: policy.networkMode !== 'blocked',
    };
    if (tool.title !== undefined) tool.annotations.title = tool.title;
  }
  return tool;
}

/** The human-in-the-loop setting of a spec, as data for the approval layer. */
export interface HumanInTheLoopSetting {
  mode: HitlMode;
  promptTemplate: string | null;
  /** `spec` when the document declares the mode, `default` when it follows the Risk Level. */
  source: 'spec' | 'default';
}

/** The spec's declared mode, else the risk default: L0 DISABLED, anything above REQUIRED. */
export function humanInTheLoopOf(spec: SafeToolSpec, level: RiskLevel): HumanInTheLoopSetting {
  const declared = spec.humanInTheLoop;
  if (declared !== null) {
    return { mode: declared.mode, promptTemplate: declared.promptTemplate ?? null, source: 'spec' };
  }
  return { mode: level === 'L0' ? 'DISABLED' : 'REQUIRED', promptTemplate: null, source: 'default' };
}
