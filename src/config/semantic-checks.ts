/**
 * Checks the schema cannot express: references between sections and exposed-name collisions. R1 (alias
 * collision, docs/rules/risk-model.md#r-comp-7-shadowing-rules) is checked here for every explicitly chosen
 * alias, so a composition that
 * shadows another never starts; R2/R3 need live tool descriptions and are checked when tools are exposed.
 */
import { conflictingPoisoningKeys, type RawGuardSettings } from './guard-settings.ts';

interface RawMember {
  upstream: string;
  tool: string;
  alias?: string;
}

interface RawDocument extends RawGuardSettings {
  upstreams?: Record<
    string,
    {
      tools?: { overrides?: Record<string, { alias?: string }> };
      prompts?: { overrides?: Record<string, { alias?: string }> };
    }
  >;
  compositions?: Record<string, { enabled?: boolean; members?: RawMember[] }>;
  auth?: { apiKeys?: (string | { name?: string })[]; oauth?: object };
  admin?: { oauth?: object };
  profiles?: Record<
    string,
    {
      tools?: { upstreams?: string[] };
      principals?: { keys?: string[]; groups?: string[]; scopes?: string[] };
    }
  >;
}

/** Key names must be unique (each is a principal), and admin roles by OAuth need an issuer to trust. */
function authProblems(doc: RawDocument): string[] {
  const problems: string[] = [];
  const seen = new Set<string>();
  (doc.auth?.apiKeys ?? []).forEach((entry, index) => {
    if (typeof entry === 'string' || entry.name === undefined) return;
    if (seen.has(entry.name))
      problems.push(`auth.apiKeys[${index}].name: "${entry.name}" names another key too`);
    seen.add(entry.name);
  });
  if (doc.admin?.oauth !== undefined && doc.auth?.oauth === undefined)
    problems.push('admin.oauth: grants roles to OAuth principals, but auth.oauth is not configured');
  return problems;
}

/** Returns human-readable problems, each naming its path and the rule it breaks. */
export function checkConfigSemantics(document: unknown): string[] {
  const doc = (document ?? {}) as RawDocument;
  const problems: string[] = [];
  const upstreamIds = new Set(Object.keys(doc.upstreams ?? {}));
  const aliasOwners = new Map<string, string[]>();
  const claim = (alias: string, path: string) =>
    aliasOwners.set(alias, [...(aliasOwners.get(alias) ?? []), path]);

  for (const [id, upstream] of Object.entries(doc.upstreams ?? {})) {
    for (const [tool, override] of Object.entries(upstream.tools?.overrides ?? {})) {
      if (override.alias !== undefined)
        claim(override.alias, `upstreams.${id}.tools.overrides.${tool}.alias`);
    }
  }
  // Prompts have a namespace of their own: two prompt aliases may not meet, a prompt and a tool may.
  const promptAliasOwners = new Map<string, string[]>();
  for (const [id, upstream] of Object.entries(doc.upstreams ?? {})) {
    for (const [prompt, override] of Object.entries(upstream.prompts?.overrides ?? {})) {
      if (override.alias === undefined) continue;
      const path = `upstreams.${id}.prompts.overrides.${prompt}.alias`;
      promptAliasOwners.set(override.alias, [...(promptAliasOwners.get(override.alias) ?? []), path]);
    }
  }
  for (const [alias, paths] of promptAliasOwners) {
    if (paths.length > 1)
      problems.push(`${paths[0]}: prompt alias "${alias}" is also used by ${paths.slice(1).join(', ')}`);
  }
  for (const [id, composition] of Object.entries(doc.compositions ?? {})) {
    (composition.members ?? []).forEach((member, index) => {
      const path = `compositions.${id}.members[${index}]`;
      if (!upstreamIds.has(member.upstream)) {
        problems.push(`${path}.upstream: "${member.upstream}" is not a configured upstream`);
      }
      if (member.alias !== undefined) {
        if (/[*?[\]{}()!]/.test(member.tool)) {
          problems.push(`${path}.alias: an alias needs a single tool, but "${member.tool}" is a glob`);
        }
        if (composition.enabled !== false) claim(member.alias, `${path}.alias`);
      }
    });
  }
  for (const [alias, paths] of aliasOwners) {
    if (paths.length > 1) {
      problems.push(
        `${paths[0]}: R1_ALIAS_COLLISION: alias "${alias}" is also used by ${paths.slice(1).join(', ')}`,
      );
    }
  }
  problems.push(...authProblems(doc));
  problems.push(...profileProblems(doc, upstreamIds));
  const poisoning = conflictingPoisoningKeys(doc);
  if (poisoning !== undefined) problems.push(poisoning);
  return problems;
}

/** A profile naming an upstream that is not configured, or a `principals` block that admits no one. */
function profileProblems(doc: RawDocument, upstreamIds: ReadonlySet<string>): string[] {
  const problems: string[] = [];
  for (const [name, profile] of Object.entries(doc.profiles ?? {})) {
    (profile.tools?.upstreams ?? []).forEach((id, index) => {
      if (!/[*?[\]{}()!]/.test(id) && !upstreamIds.has(id)) {
        problems.push(`profiles.${name}.tools.upstreams[${index}]: "${id}" is not a configured upstream`);
      }
    });
    const who = profile.principals;
    if (who !== undefined && [who.keys, who.groups, who.scopes].every((list) => (list ?? []).length === 0)) {
      problems.push(
        `profiles.${name}.principals: names no key, group or scope, so no one could use the profile ` +
          '(leave the block out to let every caller in)',
      );
    }
  }
  return problems;
}
