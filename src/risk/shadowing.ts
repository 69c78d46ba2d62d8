// Composition shadowing rules R1, R2, R3 (docs/rules/risk-model.md#r-comp-7-shadowing-rules).
import { lowerKeepingOffsets } from '../shared/index.ts';

/** One tool of a composition as the rules read it: which upstream tool, and the name it is exposed under. */
export interface ComposedTool {
  readonly serverId: string;
  readonly toolName: string;
  readonly exposedAlias: string;
}

/** A composition as the rules see it. */
export interface CompositionSnapshot {
  readonly id: string;
  readonly enabled: boolean;
  readonly members: readonly ComposedTool[];
}

/** What the rules read about an upstream tool. */
export interface ToolMetadata {
  readonly description: string | null | undefined;
}

/** Tool metadata keyed by `toolMetadataKey(serverId, toolName)`. */
export type ToolMetadataIndex = ReadonlyMap<string, ToolMetadata>;

/** A shadowing violation; `detail` is a sentence for an operator. */
export type ShadowingViolation =
  | {
      readonly rule: 'R1_ALIAS_COLLISION';
      readonly alias: string;
      /** The composition ids, one per member occurrence, joined by commas (`c1,c1` inside one composition). */
      readonly compositionIds: string;
      readonly detail: string;
    }
  | {
      readonly rule: 'R2_CROSS_SERVER_REFERENCE';
      readonly member: ComposedTool;
      readonly referenced: ComposedTool;
      readonly detail: string;
    }
  | {
      readonly rule: 'R3_SELF_SCOPE_VIOLATION';
      readonly member: ComposedTool;
      readonly serverId: string;
      readonly detail: string;
    };

/** The metadata key of a tool: `serverId::toolName`. */
export function toolMetadataKey(serverId: string, toolName: string): string {
  return `${serverId}::${toolName}`;
}

/**
 * R1: the same exposed alias (exact, case-sensitive) claimed more than once across the enabled compositions
 * given, including twice inside one composition. One violation per alias, in first-seen order.
 */
export function checkAliasCollisions(compositions: readonly CompositionSnapshot[]): ShadowingViolation[] {
  const owners = new Map<string, string[]>();
  for (const composition of compositions) {
    if (!composition.enabled) continue;
    for (const member of composition.members) {
      const ids = owners.get(member.exposedAlias) ?? [];
      ids.push(composition.id);
      owners.set(member.exposedAlias, ids);
    }
  }
  const violations: ShadowingViolation[] = [];
  for (const [alias, ids] of owners) {
    if (ids.length < 2) continue;
    violations.push({
      rule: 'R1_ALIAS_COLLISION',
      alias,
      compositionIds: ids.join(','),
      detail: `Alias '${alias}' is used by ${ids.length} enabled compositions.`,
    });
  }
  return violations;
}

const COMMAND_VERB = /\b(?:use|call|invoke|run|trigger|delegate to|then call|first call|after that)\b/i;

function lowerDescription(metadata: ToolMetadataIndex, member: ComposedTool): string | null {
  const description = metadata.get(toolMetadataKey(member.serverId, member.toolName))?.description;
  return typeof description === 'string' ? lowerKeepingOffsets(description) : null;
}

function mentions(text: string, name: string): boolean {
  // A blank name would be "contained" in every description; it names nothing, so it never counts.
  return name.trim() !== '' && text.includes(name.toLowerCase());
}

/**
 * R2: a member's description names a member of another server (tool name or alias, lower-cased substring)
 * and contains a command verb anywhere (use, call, invoke, run, trigger, delegate to, then call, first call,
 * after that; word-bounded, any case). Members without metadata are skipped; same-server pairs never compared.
 */
export function checkCrossServerReferences(
  members: readonly ComposedTool[],
  metadata: ToolMetadataIndex,
): ShadowingViolation[] {
  const violations: ShadowingViolation[] = [];
  for (const member of members) {
    const description = lowerDescription(metadata, member);
    if (description === null || !COMMAND_VERB.test(description)) continue;
    for (const other of members) {
      if (other.serverId.toLowerCase() === member.serverId.toLowerCase()) continue;
      if (!mentions(description, other.toolName) && !mentions(description, other.exposedAlias)) continue;
      violations.push({
        rule: 'R2_CROSS_SERVER_REFERENCE',
        member,
        referenced: other,
        detail: `The description of '${member.exposedAlias}' tells the model to use '${other.exposedAlias}' of server '${other.serverId}'.`,
      });
    }
  }
  return violations;
}

/**
 * R3: a member's description contains, as a plain lower-cased substring, the id of another server of the
 * same composition (so id `git` inside "GitHub" counts).
 */
export function checkSelfScopeViolations(
  members: readonly ComposedTool[],
  metadata: ToolMetadataIndex,
): ShadowingViolation[] {
  const serverIds = [...new Set(members.map((member) => member.serverId.toLowerCase()))];
  const violations: ShadowingViolation[] = [];
  for (const member of members) {
    const description = lowerDescription(metadata, member);
    if (description === null) continue;
    const own = member.serverId.toLowerCase();
    for (const serverId of serverIds) {
      if (serverId === own || !mentions(description, serverId)) continue;
      violations.push({
        rule: 'R3_SELF_SCOPE_VIOLATION',
        member,
        serverId,
        detail: `The description of '${member.exposedAlias}' names server '${serverId}'.`,
      });
    }
  }
  return violations;
}
