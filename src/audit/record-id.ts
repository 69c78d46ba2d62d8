/** Record ids: UUIDv7 (RFC 9562), so that ids of later records sort after earlier ones. */
import { v7 as uuidV7 } from 'uuid';

/** The largest millisecond stamp a UUIDv7 holds (48 bits); later times wrap, as the format does. */
const STAMP_RANGE = 2 ** 48;

/**
 * A UUIDv7 for a record made at `timeMs`: 48 bits of milliseconds, the version nibble 7, then random bits and
 * the RFC 9562 variant. Time-ordered ids keep the unique index growing at its end, so an append writes the
 * same few index pages instead of a random one each time.
 */
export function recordId(timeMs: number): string {
  return uuidV7({ msecs: Math.max(0, Math.trunc(timeMs)) % STAMP_RANGE });
}
