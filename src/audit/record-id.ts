/** Record ids: UUIDv7 (RFC 9562), so that ids of later records sort after earlier ones. */
import { randomUUID } from 'node:crypto';

/**
 * A UUIDv7 for a record made at `timeMs`: 48 bits of milliseconds, the version nibble 7, then the random bits
 * and variant of a v4 UUID. Time-ordered ids keep the unique index growing at its end, so an append writes the
 * same few index pages instead of a random one each time.
 */
export function recordId(timeMs: number): string {
  const random = randomUUID();
  const stamp = Math.max(0, Math.trunc(timeMs)).toString(16).padStart(12, '0').slice(-12);
  return `${stamp.slice(0, 8)}-${stamp.slice(8, 12)}-7${random.slice(15)}`;
}
