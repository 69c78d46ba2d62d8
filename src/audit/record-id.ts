/** Record ids: UUIDv7 (RFC 9562), so that ids of later records sort after earlier ones. */
import { randomFillSync } from 'node:crypto';

/** The largest millisecond stamp a UUIDv7 holds (48 bits); later times wrap, as the format does. */
const STAMP_RANGE = 2 ** 48;

/** Random bytes one id takes (74 bits are used: 12 after the version nibble, 62 after the variant). */
const RANDOM_BYTES = 10;

/**
 * Random bytes drawn from the CSPRNG in blocks: one call per 409 ids instead of one per id. Each id takes bytes
 * no other id took (the cursor only moves forward until the block is refilled).
 */
const pool = new Uint8Array(RANDOM_BYTES * 409);
let cursor = pool.length;

const HEX: readonly string[] = Array.from({ length: 256 }, (_, byte) => byte.toString(16).padStart(2, '0'));

/**
 * A UUIDv7 for a record made at `timeMs`: 48 bits of milliseconds, the version nibble 7, then random bits and
 * the RFC 9562 variant. Time-ordered ids keep the unique index growing at its end, so an append writes the
 * same few index pages instead of a random one each time.
 */
export function recordId(timeMs: number): string {
  if (cursor + RANDOM_BYTES > pool.length) {
    randomFillSync(pool);
    cursor = 0;
  }
  const at = cursor;
  cursor += RANDOM_BYTES;
  const stamp = Math.max(0, Math.trunc(timeMs)) % STAMP_RANGE;
  const high = Math.floor(stamp / 2 ** 16);
  const low = stamp % 2 ** 16;
  const p = pool;
  const h = HEX;
  // Hand-unrolled: this runs once per call and a loop or closures cost ten times as much.
  return (
    `${high.toString(16).padStart(8, '0')}-${low.toString(16).padStart(4, '0')}-` +
    `7${((p[at] as number) & 0x0f).toString(16)}${h[p[at + 1] as number]}-` +
    `${h[0x80 | ((p[at + 2] as number) & 0x3f)]}${h[p[at + 3] as number]}-` +
    `${h[p[at + 4] as number]}${h[p[at + 5] as number]}${h[p[at + 6] as number]}` +
    `${h[p[at + 7] as number]}${h[p[at + 8] as number]}${h[p[at + 9] as number]}`
  );
}
