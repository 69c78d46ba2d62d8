/** One call that derives everything the gateway shows and enforces for a spec, from one resolution. */
import type { PolicyResolver, ResolvedSandbox } from './resolver.ts';
import { humanInTheLoopOf, toMcpTool, type HumanInTheLoopSetting, type SpecMcpTool } from './mcp-tool.ts';
import { scoreSandboxRisk, type SandboxRisk } from './risk-level.ts';
import type { SpecResult } from './spec-error.ts';
import { computeToolSafety, type ToolSafety } from './tool-safety.ts';
import type { SafeToolSpec } from './types.ts';

/** The enforced posture and every view derived from it. */
export interface SpecEvaluation {
  resolved: ResolvedSandbox;
  toolSafety: ToolSafety;
  risk: SandboxRisk;
  humanInTheLoop: HumanInTheLoopSetting;
  mcpTool: SpecMcpTool;
}

/** Resolves a spec once and derives its toolSafety, Risk Level, HITL setting and MCP tool from that result. */
export function evaluateSpec(
  spec: SafeToolSpec,
  resolver: PolicyResolver,
  options: { categorySource?: string } = {},
): SpecResult<SpecEvaluation> {
  const result = resolver.resolve(spec);
  if (!result.ok) return result;
  const resolved = result.value;
  const risk = scoreSandboxRisk(resolved);
  return {
    ok: true,
    value: {
      resolved,
      toolSafety: computeToolSafety(spec, resolved, options),
      risk,
      humanInTheLoop: humanInTheLoopOf(spec, risk.level),
      mcpTool: toMcpTool(spec, { resolved }),
    },
  };
}
