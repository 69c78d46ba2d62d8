/**
 * Profiles (docs/identity.md#profiles): named tool, prompt and resource sets, each with its own endpoint and the
 * principals allowed to use it. Globs are compiled once; a profile's tool list is filtered once per registry
 * rebuild. A tool outside a profile does not exist for that profile's callers: absent from the list and unknown
 * on call.
 */
import type { Tool } from '@modelcontextprotocol/server';
import picomatch from 'picomatch';
import type { ProfileConfig } from '../config/index.ts';
import type { Principal } from '../identity/index.ts';
import { isRiskAtLeast, type RiskLevel } from '../risk/index.ts';
import type { ExposedTool } from './types.ts';

/** The name of the profile served at /mcp. */
export const DEFAULT_PROFILE = 'default';

type Test = (value: string) => boolean;

/** One compiled profile. */
export interface Profile {
  readonly name: string;
  /** True when the principal may use this profile. */
  admits(principal: Principal): boolean;
  /** True when the tool belongs to this profile (exposure is the registry's business, not the profile's). */
  hasTool(tool: ExposedTool): boolean;
  hasPrompt(name: string): boolean;
  /** Resources and resource templates, by their exposed name. */
  hasResource(name: string): boolean;
  /** The advertised definitions of this profile's exposed tools, computed once per registry rebuild. */
  advertised(tools: readonly ExposedTool[]): readonly Tool[];
}

/** Every configured profile, by name. */
export interface Profiles {
  /** The profile served at /mcp: the configured `default`, else one that serves everything to everyone. */
  readonly default: Profile;
  get(name: string): Profile | undefined;
}

const GLOB = { dot: true } as const;

function anyOf(globs: readonly string[] | undefined): Test | undefined {
  if (globs === undefined) return undefined;
  const test = globs.length === 0 ? () => false : picomatch([...globs], GLOB);
  return (value) => test(value);
}

/** Include (absent: everything) minus exclude. */
function selection(include: readonly string[] | undefined, exclude: readonly string[] | undefined): Test {
  const included = anyOf(include) ?? (() => true);
  const excluded = anyOf(exclude) ?? (() => false);
  return (name) => included(name) && !excluded(name);
}

/** The tags a profile's `tools.tags` sees: a local tool's Safe Tool Spec tags and its category. */
function tagsOf(tool: ExposedTool): readonly string[] {
  const category = tool.governance?.category;
  const tags = tool.governance?.tags ?? [];
  return category === undefined ? tags : [...tags, category];
}

/** A tool the risk engine has not scored counts as L5, above every cap (fail closed). */
function riskOf(tool: ExposedTool): RiskLevel {
  return tool.governance?.risk?.effective ?? 'L5';
}

/** Compiles one profile; globs are checked by the config schema, so compiling does not fail on them. */
export function compileProfile(name: string, config: ProfileConfig): Profile {
  const names = selection(config.tools?.include, config.tools?.exclude);
  const upstreams = anyOf(config.tools?.upstreams);
  const tags = anyOf(config.tools?.tags);
  const maxRisk = config.tools?.maxRisk;
  const prompts = selection(config.prompts?.include, config.prompts?.exclude);
  const resources = selection(config.resources?.include, config.resources?.exclude);
  const who = config.principals;
  const keys = anyOf(who?.keys);
  const groups = anyOf(who?.groups);
  const scopes = anyOf(who?.scopes);

  const hasTool = (tool: ExposedTool) =>
    names(tool.alias) &&
    (upstreams === undefined || (tool.upstream !== undefined && upstreams(tool.upstream))) &&
    (tags === undefined || tagsOf(tool).some(tags)) &&
    (maxRisk === undefined || isRiskAtLeast(maxRisk, riskOf(tool)));

  let cachedFor: readonly ExposedTool[] | undefined;
  let cached: readonly Tool[] = [];
  return {
    name,
    admits(principal) {
      if (who === undefined) return true;
      const keyed =
        principal.source === 'api-key' &&
        keys !== undefined &&
        (keys(principal.id) || (principal.issuer !== undefined && keys(principal.issuer)));
      return (
        keyed ||
        (keys !== undefined && principal.source !== 'api-key' && keys(principal.id)) ||
        (groups !== undefined && principal.groups.some(groups)) ||
        (scopes !== undefined && principal.scopes.some(scopes))
      );
    },
    hasTool,
    hasPrompt: prompts,
    hasResource: resources,
    advertised(tools) {
      // The registry replaces its list on every rebuild, so the list itself is the version.
      if (cachedFor !== tools) {
        cached = tools.filter((t) => t.exposed && hasTool(t)).map((t) => t.definition);
        cachedFor = tools;
      }
      return cached;
    },
  };
}

/** Compiles every configured profile; without a `default`, /mcp serves everything to everyone. */
export function compileProfiles(config: Readonly<Record<string, ProfileConfig>>): Profiles {
  const byName = new Map(Object.entries(config).map(([name, p]) => [name, compileProfile(name, p)]));
  const fallback = byName.get(DEFAULT_PROFILE) ?? compileProfile(DEFAULT_PROFILE, {});
  return { default: fallback, get: (name) => byName.get(name) };
}
