/**
 * Secret masking (docs/rules/secrets.md#r-secret-3-masking): every occurrence of a known
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
  const holds = (text: string) => secrets.some((secret) => text.includes(secret));
  // Most values hold no secret: finding that out without copying is much cheaper than building a masked copy.
  // Both walks are iterative (values from clients and upstreams can nest arbitrarily deep) and meet each
  // object once (a cycle ends instead of looping).
  const holdsSecret = (root: unknown): boolean => {
    const seen = new Set<object>();
    const stack: unknown[] = [root];
    while (stack.length > 0) {
      const value = stack.pop();
      if (typeof value === 'string') {
        if (holds(value)) return true;
        continue;
      }
      if (value === null || typeof value !== 'object' || seen.has(value)) continue;
      seen.add(value);
      if (Array.isArray(value)) {
        for (const item of value) stack.push(item);
        continue;
      }
      for (const [key, inner] of Object.entries(value)) {
        if (holds(key)) return true;
        stack.push(inner);
      }
    }
    return false;
  };
  const maskDeep = (root: unknown): unknown => {
    // Each object met gets one copy, filled from the work list; a shared or cyclic object keeps its sharing.
    const copies = new Map<object, unknown[] | Record<string, unknown>>();
    const toFill: object[] = [];
    const copyOf = (value: unknown): unknown => {
      if (typeof value === 'string') return mask(value);
      if (value === null || typeof value !== 'object') return value;
      let copy = copies.get(value);
      if (copy === undefined) {
        copy = Array.isArray(value) ? [] : {};
        copies.set(value, copy);
        toFill.push(value);
      }
      return copy;
    };
    const result = copyOf(root);
    while (toFill.length > 0) {
      const source = toFill.pop() as object;
      const target = copies.get(source) as unknown[] | Record<string, unknown>;
      if (Array.isArray(target)) {
        for (const item of source as unknown[]) target.push(copyOf(item));
        continue;
      }
      // defineProperty, not assignment: a key named __proto__ must stay data, never replace the prototype.
      for (const [key, inner] of Object.entries(source)) {
        Object.defineProperty(target, mask(key), {
          value: copyOf(inner),
          enumerable: true,
          writable: true,
          configurable: true,
        });
      }
    }
    return result;
  };
  return {
    mask: secrets.length === 0 ? (text) => text : mask,
    maskDeep: <T>(value: T): T =>
      secrets.length === 0 || !holdsSecret(value) ? value : (maskDeep(value) as T),
    with: (more) => createMasker([...secrets, ...more]),
    empty: secrets.length === 0,
  };
}
