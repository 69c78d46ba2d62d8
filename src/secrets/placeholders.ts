/**
 * The one `${NAME}` placeholder grammar of Portcullis (docs/rules/secrets.md#r-secret-1-placeholder-grammar):
 * NAME is `[A-Z_][A-Z0-9_]*`, case-sensitive; unset, empty or whitespace-only values are missing.
 */

/** Matches every embedded placeholder; the capture group is the name. Always use with matchAll/replace. */
export const PLACEHOLDER_PATTERN = /\$\{([A-Z_][A-Z0-9_]*)\}/g;

const ANCHORED_PATTERN = /^\$\{([A-Z_][A-Z0-9_]*)\}$/;

/** Looks a name up; returns undefined when it is not set. */
export type EnvLookup = (name: string) => string | undefined;

/** The distinct placeholder names in `text`, in first-seen order. */
export function findPlaceholders(text: string): string[] {
  const names = new Set<string>();
  for (const match of text.matchAll(PLACEHOLDER_PATTERN)) names.add(match[1] as string);
  return [...names];
}

/** The name when the whole value is exactly one placeholder, else undefined. */
export function anchoredPlaceholder(text: string): string | undefined {
  return ANCHORED_PATTERN.exec(text)?.[1];
}

/** True when a looked-up value counts as missing: unset, empty or whitespace only. */
export function isMissingValue(value: string | undefined): value is undefined {
  return value === undefined || value.trim() === '';
}

/** Result of substituting placeholders: the text plus the values that were inserted (to be masked). */
export interface Substitution {
  text: string;
  /** Values inserted into the text, distinct, in first-seen order. */
  secrets: string[];
  /** Names referenced but missing; those placeholders are left verbatim. */
  missing: string[];
}

/** Replaces every present placeholder with its value, inserted literally; missing ones stay verbatim. */
export function substitutePlaceholders(text: string, lookup: EnvLookup): Substitution {
  const secrets = new Set<string>();
  const missing = new Set<string>();
  const out = text.replace(PLACEHOLDER_PATTERN, (whole, name: string) => {
    const value = lookup(name);
    if (isMissingValue(value)) {
      missing.add(name);
      return whole;
    }
    secrets.add(value);
    return value;
  });
  return { text: out, secrets: [...secrets], missing: [...missing] };
}
