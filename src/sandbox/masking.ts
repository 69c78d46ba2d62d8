/**
 * Secret masking (DESIGN.md decision 8, reference-rules §14.1 with D10/D11): every occurrence of a known
 * secret value of length >= 4 becomes `***`, longest secret first so that no fragment of a longer secret
 * survives a shorter one's replacement. Plain substring replacement, no regex.
 */

/** The shortest secret value that is masked; shorter values would mask ordinary text. */
export const MIN_SECRET_LENGTH = 4;

/** The replacement for every masked secret. */
export const MASK = '***';

/** Masks known secret values in strings and in JSON-like values. */
export interface Masker {
  /** The text with every known secret replaced by `***`. */
  mask(text: string): string;
  /** A JSON-like value with every string (keys included) masked: a masked copy, or the value itself when it holds no secret. */
  maskDeep<T>(value: T): T;
  /** A masker that also knows `values`. */
  with(values: Iterable<string>): Masker;
  /** True when no secret is known (masking is the identity). */
  readonly empty: boolean;
}

/** Builds a masker over the given secret values (values shorter than 4 are ignored). */
export function createMasker(values: Iterable<string> = []): Masker {
  const secrets = [...new Set([...values].filter((v) => v.length >= MIN_SECRET_LENGTH))].sort(
    (a, b) => b.length - a.length,
  );
  const mask = (text: string): string => {
    let out = text;
    for (const secret of secrets) if (out.includes(secret)) out = out.split(secret).join(MASK);
    return out;
  };
  // Most values hold no secret: finding that out without copying is much cheaper than building a masked copy.
  const holdsSecret = (value: unknown): boolean => {
    if (typeof value === 'string') return secrets.some((secret) => value.includes(secret));
    if (Array.isArray(value)) return value.some(holdsSecret);
    if (value !== null && typeof value === 'object') {
      for (const [key, inner] of Object.entries(value))
        if (holdsSecret(key) || holdsSecret(inner)) return true;
    }
    return false;
  };
  const maskDeep = (value: unknown): unknown => {
    if (typeof value === 'string') return mask(value);
    if (Array.isArray(value)) return value.map(maskDeep);
    if (value !== null && typeof value === 'object') {
      const out: Record<string, unknown> = {};
      // defineProperty, not assignment: a key named __proto__ must stay data, never replace the prototype.
      for (const [key, inner] of Object.entries(value)) {
        Object.defineProperty(out, mask(key), {
          value: maskDeep(inner),
          enumerable: true,
          writable: true,
          configurable: true,
        });
      }
      return out;
    }
    return value;
  };
  return {
    mask: secrets.length === 0 ? (text) => text : mask,
    maskDeep: <T>(value: T): T =>
      secrets.length === 0 || !holdsSecret(value) ? value : (maskDeep(value) as T),
    with: (more) => createMasker([...secrets, ...more]),
    empty: secrets.length === 0,
  };
}
