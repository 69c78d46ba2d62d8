/** The hash chain of the audit log: each row's digest covers the previous digest and the row's record text. */
import { sha256Hex } from '../shared/index.ts';

/** The prevDigest of the first row. */
export const GENESIS_DIGEST = '0'.repeat(64);

/** The digest of a row: sha256(prevDigest + recordText), lower-case hex. */
export function linkDigest(prevDigest: string, recordText: string): string {
  return sha256Hex(prevDigest + recordText);
}
