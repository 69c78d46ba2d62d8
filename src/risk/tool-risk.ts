// Tool publish risk: base action + doc penalty, the shared bucketing and three floors
// (docs/rules/risk-model.md, R-TOOL-1 to R-TOOL-5).
import { bucketScore } from './bucket.ts';
import type { SideEffectScope } from './catalog-types.ts';
import { hasIrreversibleVerb } from './irreversible-verb.ts';
import { JAVA_SPACE, isBlank, javaTrim, isRecord } from '../shared/index.ts';
import type { RiskLevel } from './levels.ts';
import type { ToolAnnotations } from './tool-definition.ts';

/** The tool floors, in the order they are checked; the first hit wins. */
export type ToolFloorTrigger =
  | 'irreversible_verb_in_tool_name'
  | 'destructive_and_non_idempotent'
  | 'description_missing_and_annotations_missing';

/** One gap counted by the tool doc-penalty axis, with its points in the name's comment. */
export type ToolDocGap =
  /** +2 */
  | 'description_missing'
  /** +1 */
  | 'description_short_or_boilerplate'
  /** +2 */
  | 'input_schema_missing'
  /** +1 */
  | 'property_descriptions_sparse'
  /** +1 */
  | 'annotations_missing'
  /** +1 each */
  | 'side_effect_type_unspecified'
  | 'external_data_flow_unspecified'
  | 'reversibility_unspecified';

/** The curator checklist of the reference; live tools get it fully complete (waived). */
export interface CuratorChecklist {
  readonly sideEffectTypeSpecified: boolean;
  readonly externalDataFlowSpecified: boolean;
  readonly reversibilitySpecified: boolean;
}

/** Everything the tool scorer reads. Annotations are the effective ones (catalog overrides applied). */
export interface ToolPublishRiskInput {
  readonly name: string;
  readonly description: string | null | undefined;
  /** The real input schema; null or undefined scores as missing (+2). */
  readonly inputSchema: unknown;
  readonly annotations: ToolAnnotations | null | undefined;
  readonly sideEffectScope: SideEffectScope;
  readonly sendsUserData: boolean;
  /** Catalog entry with a non-empty raw trust-signal set: zeroes the doc axis (floors still apply). */
  readonly trustedServer: boolean;
  /** Defaults to fully complete, as the newest reference resolver does for live tools. */
  readonly checklist?: CuratorChecklist | undefined;
}

/** The two tool axes, each as its points. */
export interface ToolAxisScores {
  readonly baseAction: number;
  readonly docPenalty: number;
}

/** A scored tool: level, the sum and axes behind it, the doc gaps found, and the floor that set the level. */
export interface ToolPublishRisk {
  readonly level: RiskLevel;
  readonly totalScore: number;
  readonly axisScores: ToolAxisScores;
  readonly floorTrigger: ToolFloorTrigger | null;
  /** Gaps found before the trusted-server waiver, so the waiver stays visible. */
  readonly docGaps: readonly ToolDocGap[];
  readonly docWaived: boolean;
}

const SCOPE_POINTS: Readonly<Record<SideEffectScope, number>> = {
  LOCAL_ONLY: 0,
  UNKNOWN: 0,
  REMOTE_WRITE_SCOPE: 1,
  REMOTE_ADMIN_SCOPE: 2,
};

const GAP_POINTS: Readonly<Record<ToolDocGap, number>> = {
  description_missing: 2,
  description_short_or_boilerplate: 1,
  input_schema_missing: 2,
  property_descriptions_sparse: 1,
  annotations_missing: 1,
  side_effect_type_unspecified: 1,
  external_data_flow_unspecified: 1,
  reversibility_unspecified: 1,
};

const BOILERPLATE_PREFIX = new RegExp(`^(?:returns|return|gets|get|does|performs)${JAVA_SPACE}`, 'i');

/** The minimum description length that is not "short". */
export const MIN_DESCRIPTION_LENGTH = 30;

/**
 * True when a description is boilerplate (R-TOOL-3): the trimmed text starts with return(s),
 * get(s), does or performs plus whitespace, and its lower case contains the tool name lower-cased with `_`
 * read as a space (a blank name always counts as contained).
 */
export function isBoilerplateDescription(description: string, toolName: string): boolean {
  if (!BOILERPLATE_PREFIX.test(javaTrim(description))) return false;
  return description.toLowerCase().includes(toolName.toLowerCase().replaceAll('_', ' '));
}

/**
 * The share of `properties` entries with a non-blank `description`; 1.0 when the schema is missing, has
 * no properties object, or has zero properties.
 */
export function propertyDescriptionCoverage(inputSchema: unknown): number {
  if (!isRecord(inputSchema) || !isRecord(inputSchema.properties)) return 1;
  const properties = Object.values(inputSchema.properties);
  if (properties.length === 0) return 1;
  const described = properties.filter(
    (property) =>
      isRecord(property) && typeof property.description === 'string' && !isBlank(property.description),
  ).length;
  return described / properties.length;
}

/** True when none of the four hints is specified (`title` does not count). */
export function hasNoHints(annotations: ToolAnnotations | null | undefined): boolean {
  if (annotations === null || annotations === undefined) return true;
  return (
    typeof annotations.readOnlyHint !== 'boolean' &&
    typeof annotations.destructiveHint !== 'boolean' &&
    typeof annotations.idempotentHint !== 'boolean' &&
    typeof annotations.openWorldHint !== 'boolean'
  );
}

/** The doc-penalty gaps of a tool, in the order the reference counts them. */
export function findToolDocGaps(input: ToolPublishRiskInput): ToolDocGap[] {
  const gaps: ToolDocGap[] = [];
  const description = input.description;
  if (description === null || description === undefined || isBlank(description)) {
    gaps.push('description_missing');
  } else if (
    description.length < MIN_DESCRIPTION_LENGTH ||
    isBoilerplateDescription(description, input.name)
  ) {
    gaps.push('description_short_or_boilerplate');
  }
  if (input.inputSchema === null || input.inputSchema === undefined) gaps.push('input_schema_missing');
  if (propertyDescriptionCoverage(input.inputSchema) < 0.5) gaps.push('property_descriptions_sparse');
  if (hasNoHints(input.annotations)) gaps.push('annotations_missing');
  const checklist = input.checklist;
  if (checklist !== undefined) {
    if (!checklist.sideEffectTypeSpecified) gaps.push('side_effect_type_unspecified');
    if (!checklist.externalDataFlowSpecified) gaps.push('external_data_flow_unspecified');
    if (!checklist.reversibilitySpecified) gaps.push('reversibility_unspecified');
  }
  return gaps;
}

/** The base-action points (R-TOOL-1), floored at 0 after summing; explicit hints only. */
export function baseActionScore(input: ToolPublishRiskInput): number {
  const hints = input.annotations ?? {};
  let score = 0;
  if (hints.readOnlyHint !== true) score += 1;
  if (hints.destructiveHint === true) score += 2;
  if (hints.openWorldHint === true) score += 1;
  if (hints.idempotentHint === true) score -= 1;
  score += SCOPE_POINTS[input.sideEffectScope];
  if (input.sendsUserData) score += 1;
  return Math.max(0, score);
}

function toolFloor(input: ToolPublishRiskInput): { trigger: ToolFloorTrigger; level: RiskLevel } | null {
  if (hasIrreversibleVerb(input.name)) return { trigger: 'irreversible_verb_in_tool_name', level: 'L5' };
  const hints = input.annotations ?? {};
  if (hints.destructiveHint === true && hints.idempotentHint !== true) {
    return { trigger: 'destructive_and_non_idempotent', level: 'L5' };
  }
  if (isBlank(input.description) && hasNoHints(input.annotations)) {
    return { trigger: 'description_missing_and_annotations_missing', level: 'L4' };
  }
  return null;
}

/**
 * Scores a tool for publishing (R-TOOL-1 to R-TOOL-5): base action plus doc penalty (min(3, gaps), zero for a
 * trusted server), bucketed unless a floor sets the level (irreversible verb → L5, destructive and not
 * idempotent → L5, no description and no hints → L4). Sum and axes are reported either way.
 */
export function scoreToolPublishRisk(input: ToolPublishRiskInput): ToolPublishRisk {
  const docGaps = findToolDocGaps(input);
  const gapPoints = docGaps.reduce((sum, gap) => sum + GAP_POINTS[gap], 0);
  const axisScores: ToolAxisScores = {
    baseAction: baseActionScore(input),
    docPenalty: input.trustedServer ? 0 : Math.min(3, gapPoints),
  };
  const totalScore = axisScores.baseAction + axisScores.docPenalty;
  const floor = toolFloor(input);
  return {
    level: floor === null ? bucketScore(totalScore) : floor.level,
    totalScore,
    axisScores,
    floorTrigger: floor === null ? null : floor.trigger,
    docGaps,
    docWaived: input.trustedServer,
  };
}
