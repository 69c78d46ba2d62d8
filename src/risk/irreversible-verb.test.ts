import { describe, expect, it } from 'vitest';
import { hasIrreversibleVerb } from './irreversible-verb.ts';

describe('hasIrreversibleVerb (R-TOOL-6)', () => {
  it.each([
    // Reference rule: verb prefix + `_` or `-`, any case.
    ['delete_file', true],
    ['drop-table', true],
    ['PURGE_CACHE', true],
    ['Wipe_disk', true],
    ['remove-member', true],
    ['git_force_push', true],
    ['forcepush', true],
    ['force-push-branch', true],
    // Portcullis: camelCase and PascalCase.
    ['deleteRepository', true],
    ['DeleteRepository', true],
    ['dropTable', true],
    ['purgeQueue', true],
    ['WipeDevice', true],
    ['removeUser', true],
    ['forcePush', true],
    // Portcullis: `.`/`/` separators and the bare verb.
    ['delete.file', true],
    ['remove/item', true],
    ['delete', true],
    ['Remove', true],
    // Near misses.
    ['deleted_items_count', false],
    ['deletedAt', false],
    ['removed', false],
    ['undelete_item', false],
    ['hard_delete_record', false],
    ['list_deleted', false],
    ['Dropbox_upload', false],
    ['dropbox', false],
    ['wiper_status', false],
    ['removal_policy', false],
    ['purged_count', false],
    ['DELETERepository', false],
    ['get_file', false],
    ['pushForce', false],
  ])('%s → %s', (name, expected) => {
    expect(hasIrreversibleVerb(name)).toBe(expected);
  });
});
