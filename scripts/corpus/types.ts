/**
 * Shapes and schema helpers of the poisoning corpus generator (eval/poisoning/README.md). The corpus is the
 * committed JSON; these modules only write it down compactly and deterministically.
 */
import type { McpToolDefinition } from '../../src/risk/index.ts';

/** Technique families of poisoned entries (eval/poisoning/README.md lists what each one means). */
export const POISONED_TECHNIQUES = [
  'tool-poisoning',
  'rug-pull',
  'shadowing',
  'line-jumping',
  'schema-poisoning',
  'full-schema-poisoning',
  'ansi-terminal',
  'unicode-smuggling',
  'exfiltration',
  'persona-swap',
  'chat-template',
  'concealment',
  'standing-order',
  'encoded-payload',
] as const;

/** One poisoned technique family. */
export type PoisonedTechnique = (typeof POISONED_TECHNIQUES)[number];

/** One corpus entry as committed (eval/poisoning/poisoned.json and honest.json). */
export interface CorpusEntry {
  readonly id: string;
  readonly label: 'poisoned' | 'honest';
  readonly technique: PoisonedTechnique | 'honest';
  /** Finer grain inside a technique (e.g. `tag-characters`, `base64`); for honest ones the hard-negative kind. */
  readonly variant: string;
  /** Honest only: true when the definition was chosen or written to look suspicious. */
  readonly hardNegative?: boolean;
  /** Honest only: why a naive scanner might flag it. */
  readonly whySuspicious?: string;
  /** Poisoned only: where the payload sits (description, parameter name, enum, default, title, …). */
  readonly surface?: string;
  readonly source: string;
  /** Names of other servers' tools exposed beside this one (for a cross-server check), when it matters. */
  readonly coexistingTools?: readonly string[];
  /**
   * The version the server published before `tool`: on a rug pull the benign first version, on an honest
   * redefinition (variant `honest-update`) the earlier honest one.
   */
  readonly previous?: McpToolDefinition;
  readonly tool: McpToolDefinition;
}

/** A JSON Schema property. */
export type Prop = Record<string, unknown>;

/** A string property. */
export const str = (description: string, extra: Prop = {}): Prop => ({
  type: 'string',
  description,
  ...extra,
});
/** A number property. */
export const num = (description: string, extra: Prop = {}): Prop => ({
  type: 'number',
  description,
  ...extra,
});
/** An integer property. */
export const int = (description: string, extra: Prop = {}): Prop => ({
  type: 'integer',
  description,
  ...extra,
});
/** A boolean property. */
export const bool = (description: string, extra: Prop = {}): Prop => ({
  type: 'boolean',
  description,
  ...extra,
});
/** An array property of the given item schema. */
export const arr = (items: Prop, description: string, extra: Prop = {}): Prop => ({
  type: 'array',
  items,
  description,
  ...extra,
});
/** A string property limited to an enum. */
export const oneOf = (values: readonly string[], description: string, extra: Prop = {}): Prop => ({
  type: 'string',
  enum: [...values],
  description,
  ...extra,
});

/** An object input schema; `required` lists the required property names. */
export function input(properties: Record<string, Prop> = {}, required: readonly string[] = []): Prop {
  return required.length === 0
    ? { type: 'object', properties }
    : { type: 'object', properties, required: [...required] };
}

/** Read-only annotations (the common case for query tools). */
export const READ_ONLY = { readOnlyHint: true, openWorldHint: false } as const;
/** Destructive annotations. */
export const DESTRUCTIVE = { readOnlyHint: false, destructiveHint: true } as const;

/** An honest entry before ids are assigned. */
export interface HonestSpec {
  readonly source: string;
  readonly variant: string;
  readonly hard: boolean;
  readonly why: string;
  readonly tool: McpToolDefinition;
  readonly coexistingTools?: readonly string[];
  readonly previous?: McpToolDefinition;
}

/**
 * Builds an honest spec. `variant` names the kind of hard negative (`plain` for ordinary tools); `previous`, the
 * earlier honest version of a redefined tool.
 */
export function honest(
  source: string,
  variant: string,
  why: string,
  tool: McpToolDefinition,
  options: { hard?: boolean; coexistingTools?: readonly string[]; previous?: McpToolDefinition } = {},
): HonestSpec {
  return {
    source,
    variant,
    hard: options.hard ?? variant !== 'plain',
    why,
    tool,
    ...(options.coexistingTools === undefined ? {} : { coexistingTools: options.coexistingTools }),
    ...(options.previous === undefined ? {} : { previous: options.previous }),
  };
}

/** A poisoned entry before ids are assigned. */
export interface PoisonedSpec {
  readonly technique: PoisonedTechnique;
  readonly variant: string;
  readonly surface: string;
  readonly source: string;
  readonly tool: McpToolDefinition;
  readonly previous?: McpToolDefinition;
  readonly coexistingTools?: readonly string[];
}

/** Builds a poisoned spec; `previous` is the benign first version of a rug pull. */
export function poisoned(
  technique: PoisonedTechnique,
  variant: string,
  surface: string,
  source: string,
  t: McpToolDefinition,
  extra: { previous?: McpToolDefinition; coexistingTools?: readonly string[] } = {},
): PoisonedSpec {
  return {
    technique,
    variant,
    surface,
    source,
    tool: t,
    ...(extra.previous === undefined ? {} : { previous: extra.previous }),
    ...(extra.coexistingTools === undefined ? {} : { coexistingTools: extra.coexistingTools }),
  };
}

/** A tool definition from its parts (the order the fields appear in a `tools/list` answer). */
export function tool(
  name: string,
  description: string,
  properties: Record<string, Prop> = {},
  required: readonly string[] = [],
  extra: { title?: string; annotations?: Record<string, unknown> } = {},
): McpToolDefinition {
  return {
    name,
    ...(extra.title === undefined ? {} : { title: extra.title }),
    description,
    inputSchema: input(properties, required),
    ...(extra.annotations === undefined ? {} : { annotations: extra.annotations }),
  };
}
