/**
 * `portcullis ledger list | approve | revoke | restore UPSTREAM TOOL [--kind K]`: the fingerprint ledger from the
 * command line (`--kind` names a prompt, resource, resource template or server instructions instead of a tool). It writes the same database the gateway uses (a running gateway picks the change up within a second) and
 * records each action, with the OS user as actor, in the audit log.
 */
import { loadConfig, processEnvLookup } from '../config/index.ts';
import { userInfo } from 'node:os';
import { adminActionInput, createAuditLog } from '../audit/index.ts';
import { isPortcullisError } from '../errors/index.ts';
import { applyLedgerAction, createLedger, ledgerKey, type LedgerAction } from '../ledger/index.ts';
import { createMasker } from '../secrets/index.ts';
import { openStore } from '../store/index.ts';
import type { CommandIo } from './args.ts';
import { parseCommandArgs } from './args.ts';

const USAGE =
  'usage: portcullis ledger list [--json] | approve UPSTREAM TOOL [--hash H] | revoke UPSTREAM TOOL | ' +
  'restore UPSTREAM TOOL   [--kind prompt|resource|resource-template|server-instructions] [--reason TEXT] ' +
  '[--config FILE]\n  (TOOL is the name within its kind: a prompt name, a resource URI, a URI template, ' +
  'or "instructions")\n';

/** The OS user running the command; some containers have no passwd entry for it. */
function osUser(): string {
  try {
    return userInfo().username;
  } catch {
    // No passwd entry for this uid (common in containers): name the actor by uid.
    return `uid-${process.getuid?.() ?? 'unknown'}`;
  }
}

const isLedgerAction = (value: string): value is LedgerAction =>
  value === 'approve' || value === 'revoke' || value === 'restore';

/** Runs `portcullis ledger`. */
export async function runLedger(args: string[], io: CommandIo): Promise<number> {
  const { values, positionals } = parseCommandArgs(args, {
    json: { type: 'boolean' },
    hash: { type: 'string' },
    kind: { type: 'string' },
    reason: { type: 'string' },
  });
  const [action, upstream, tool] = positionals;
  if (values.help || action === undefined) {
    io.stdout(USAGE);
    return values.help ? 0 : 2;
  }
  const config = loadConfig({
    ...(values.config ? { path: values.config } : {}),
    cwd: io.cwd,
    lookup: processEnvLookup(),
  });
  const store = openStore({ path: config.store.path });
  try {
    const ledger = createLedger(store.ledger, Date.now);
    if (action === 'list') {
      const records = ledger.list();
      if (values.json) io.stdout(`${JSON.stringify(records, null, 2)}\n`);
      else {
        for (const r of records)
          io.stdout(
            `${r.status.padEnd(18)} ${ledgerKey(r.upstream, r.tool, r.kind)}  ${r.hash.slice(0, 16)}…  (${r.profile})\n`,
          );
        io.stdout(`${records.length} fingerprints\n`);
      }
      return 0;
    }
    if (!isLedgerAction(action) || upstream === undefined || tool === undefined) {
      io.stderr(USAGE);
      return 2;
    }
    const kind = values.kind;
    const startedAt = Date.now();
    const reason = values.reason?.trim() ? values.reason : null;
    const audit = createAuditLog(store, { masker: createMasker(config.secrets) });
    const record = (outcome: 'OK' | 'ERROR', errorCode?: string) =>
      audit.append(
        adminActionInput({
          actor: `cli:${osUser()}`,
          action: `ledger.${action}`,
          target: kind === undefined ? `${upstream}::${tool}` : `${kind}:${upstream}::${tool}`,
          reason,
          body: {
            upstream,
            tool,
            ...(kind === undefined ? {} : { kind }),
            ...(values.hash ? { hash: values.hash } : {}),
          },
          outcome,
          durationMs: Date.now() - startedAt,
          ...(errorCode === undefined ? {} : { errorCode }),
        }),
      );
    try {
      const result = applyLedgerAction(ledger, action, { upstream, tool, kind, hash: values.hash });
      record('OK');
      io.stdout(`${result.outcome} ${ledgerKey(upstream, tool, result.record.kind)} ${result.record.hash}\n`);
      return 0;
    } catch (error) {
      if (!isPortcullisError(error)) throw error;
      record('ERROR', error.code);
      io.stderr(`portcullis ledger: ${error.message}\n`);
      return 1;
    }
  } finally {
    store.close();
  }
}
