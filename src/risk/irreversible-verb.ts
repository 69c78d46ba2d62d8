// The irreversible-verb floor of tool risk (docs/rules/risk-model.md#r-tool-6-irreversible-verb-in-the-name).

// Reference rule: the name starts with the verb and a `_` or `-`, ignoring case.
const SEPARATED_PREFIX = /^(?:delete|drop|purge|wipe|remove)[_-]/i;
// Portcullis: also `.` or `/` as the separator, and the verb as the whole name.
const EXTRA_SEPARATED_PREFIX = /^(?:delete|drop|purge|wipe|remove)(?:[./]|$)/i;
// Portcullis: camelCase (`deleteRepository`) and PascalCase (`DeleteRepository`); case-sensitive on purpose,
// so the verb must end where a capital starts: `deletedAt`, `Dropbox` and `removed` stay clear.
const CAMEL_PREFIX = /^(?:delete|drop|purge|wipe|remove|Delete|Drop|Purge|Wipe|Remove)[A-Z]/;
// Reference rule: force push anywhere, with an optional `_` or `-`, ignoring case (so `forcePush` too).
const FORCE_PUSH = /force[_-]?push/i;

/**
 * True when a tool name carries an irreversible verb: it starts with delete, drop, purge, wipe or remove
 * followed by `_`, `-`, `.`, `/`, the end of the name, or (camelCase/PascalCase) a capital letter; or it
 * contains force-push anywhere. Only the first word counts: `undelete_item` and `hard_delete_record` do not.
 */
export function hasIrreversibleVerb(name: string): boolean {
  return (
    SEPARATED_PREFIX.test(name) ||
    EXTRA_SEPARATED_PREFIX.test(name) ||
    CAMEL_PREFIX.test(name) ||
    FORCE_PUSH.test(name)
  );
}
