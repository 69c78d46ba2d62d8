/** The compositions a tool list forms, as the composition-level guards see them (docs/rules/risk-model.md). */
import type { CompositionConfig } from '../config/index.ts';
import type { ExposedTool, UpstreamExposedTool } from '../exposure/index.ts';
import {
  DEFAULT_EXPOSED_MAX_RISK,
  toolMetadataKey,
  type ComposedTool,
  type RiskLevel,
  type ToolMetadata,
  type ToolMetadataIndex,
} from '../risk/index.ts';

/** One composition asking to be enabled: its cap and members, in the order the gate walks them. */
export interface CompositionSubject {
  readonly id: string;
  /** The configured `maxRisk`; an implicit (`upstream:<id>`) composition has the exposed-set default. */
  readonly cap: RiskLevel;
  readonly tools: readonly UpstreamExposedTool[];
  readonly members: readonly ComposedTool[];
}

/**
 * Groups the upstream tools by composition (a tool of a down upstream or a disabled composition takes no
 * part), configured compositions first, then by id.
 */
export function collectCompositions(
  tools: readonly ExposedTool[],
  configured: readonly CompositionConfig[],
): CompositionSubject[] {
  const byComposition = new Map<string, UpstreamExposedTool[]>();
  for (const tool of tools) {
    if (tool.origin !== 'upstream') continue;
    if (tool.withheldReason === 'upstream-down' || tool.withheldReason === 'composition-disabled') continue;
    const list = byComposition.get(tool.composition) ?? [];
    list.push(tool);
    byComposition.set(tool.composition, list);
  }
  const explicit = new Map(configured.map((c) => [c.id, c]));
  const rank = (id: string) => (explicit.has(id) ? 0 : 1);
  return [...byComposition]
    .sort(([a], [b]) => rank(a) - rank(b) || (a < b ? -1 : a > b ? 1 : 0))
    .map(([id, members]) => ({
      id,
      cap: explicit.get(id)?.maxRisk ?? DEFAULT_EXPOSED_MAX_RISK,
      tools: members,
      members: members.map((t) => ({
        serverId: t.upstream,
        toolName: t.upstreamTool,
        exposedAlias: t.alias,
      })),
    }));
}

/** The description of every upstream tool, keyed as the shadowing rules look them up. */
export function toolMetadataOf(tools: readonly ExposedTool[]): ToolMetadataIndex {
  const metadata = new Map<string, ToolMetadata>();
  for (const tool of tools) {
    if (tool.origin !== 'upstream') continue;
    metadata.set(toolMetadataKey(tool.upstream, tool.upstreamTool), {
      description: tool.definition.description,
    });
  }
  return metadata;
}
