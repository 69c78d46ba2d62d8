/**
 * Masking and clipping of text that leaves the sandbox (console lines, error messages). The isolate cuts long
 * text at `limit + longest secret`, so a secret split by that cut can only survive as a short tail: the tail is
 * dropped after masking, then the text is clipped to `limit`.
 */
import type { Masker } from '../../secrets/index.ts';

/** Appended to text that was shortened. */
export const CLIP_MARK = '…[truncated]';

/** Masks `text` and clips it to `limit` characters; `wasCut` says the isolate already shortened it. */
export function maskAndClip(
  text: string,
  wasCut: boolean,
  limit: number,
  masker: Masker,
  margin: number,
): string {
  let out = masker.mask(text);
  let clipped = wasCut;
  if (wasCut && margin > 0) out = out.slice(0, Math.max(0, out.length - margin));
  if (out.length > limit) {
    out = out.slice(0, limit);
    clipped = true;
  }
  return clipped ? `${out}${CLIP_MARK}` : out;
}

/** The longest secret length (the margin the isolate adds to its cut). */
export function longestSecret(secrets: readonly string[]): number {
  return secrets.reduce((longest, secret) => Math.max(longest, secret.length), 0);
}
