/**
 * Environment placeholders of static variables (docs/rules/secrets.md, R-SECRET-1 and R-SECRET-2): one
 * grammar, blank counts as missing, embedded references are substituted literally and their values are secrets.
 */
import { findPlaceholders, substitutePlaceholders, type EnvLookup } from './deps.ts';
import type { SafeToolSpec } from './types.ts';

/** One static variable with its position in the document. */
export interface StaticVariable {
  key: string;
  value: string;
  index: number;
}

/** The static variables in document order (one per single-key entry). */
export function staticVariablesOf(spec: Pick<SafeToolSpec, 'staticVariables'>): StaticVariable[] {
  const out: StaticVariable[] = [];
  spec.staticVariables.forEach((entry, index) => {
    for (const [key, value] of Object.entries(entry)) out.push({ key, value, index });
  });
  return out;
}

/** The distinct env var names referenced by static variable values, embedded ones included, first-seen order. */
export function declaredEnvVars(spec: Pick<SafeToolSpec, 'staticVariables'>): string[] {
  const names = new Set<string>();
  for (const { value } of staticVariablesOf(spec))
    for (const name of findPlaceholders(value)) names.add(name);
  return [...names];
}

/** Static variables after substitution. */
export interface ResolvedStaticVariables {
  /** key → value with every present placeholder substituted (later duplicate keys win). */
  values: Record<string, string>;
  /** Every substituted value, distinct: to be masked at every egress (R-SECRET-3). */
  secrets: string[];
  /** Referenced names whose values are unset, empty or whitespace only (R-SECRET-2). */
  missing: string[];
}

/** Resolves every static variable through `lookup` (never process.env directly). */
export function resolveStaticVariables(
  spec: Pick<SafeToolSpec, 'staticVariables'>,
  lookup: EnvLookup,
): ResolvedStaticVariables {
  const values: Record<string, string> = {};
  const secrets = new Set<string>();
  const missing = new Set<string>();
  for (const { key, value } of staticVariablesOf(spec)) {
    const substituted = substitutePlaceholders(value, lookup);
    values[key] = substituted.text;
    for (const secret of substituted.secrets) secrets.add(secret);
    for (const name of substituted.missing) missing.add(name);
  }
  return { values, secrets: [...secrets], missing: [...missing] };
}
