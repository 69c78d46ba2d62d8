/**
 * `portcullis ledger list | approve UPSTREAM TOOL [--hash H] | revoke UPSTREAM TOOL`: the fingerprint ledger
 * from the command line. It writes the same database the gateway uses; a running gateway picks the change up
 * within a second and advertises the new tool list.
 */
import { loadConfig, processEnvLookup } from '../config/index.ts';
import { createLedger } from '../ledger/index.ts';
import { openStore } from '../store/index.ts';
import type { CommandIo } from './args.ts';
import { parseCommandArgs } from './args.ts';

const USAGE =
  'usage: portcullis ledger list [--json] | approve UPSTREAM TOOL [--hash H] | revoke UPSTREAM TOOL [--config FILE]\n';

/** Runs `portcullis ledger`. */
export async function runLedger(args: string[], io: CommandIo): Promise<number> {
  const { values, positionals } = parseCommandArgs(args, {
    json: { type: 'boolean' },
    hash: { type: 'string' },
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
            `${r.status.padEnd(18)} ${r.upstream}::${r.tool}  ${r.hash.slice(0, 16)}…  (${r.profile})\n`,
          );
        io.stdout(`${records.length} fingerprints\n`);
      }
      return 0;
    }
    if ((action !== 'approve' && action !== 'revoke') || upstream === undefined || tool === undefined) {
      io.stderr(USAGE);
      return 2;
    }
    const result =
      action === 'approve' ? ledger.approve(upstream, tool, values.hash) : ledger.revoke(upstream, tool);
    if (result.outcome === 'NOT_FOUND') {
      io.stderr(`portcullis ledger: no fingerprint is recorded for ${upstream}::${tool}\n`);
      return 1;
    }
    if (action === 'approve' && result.outcome !== 'APPROVED') {
      io.stderr(
        `portcullis ledger: approve refused for ${upstream}::${tool}: ${result.outcome === 'HASH_MISMATCH' ? 'the stored definition changed since the hash you reviewed' : 'a revoked tool stays revoked'}\n`,
      );
      return 1;
    }
    io.stdout(`${result.outcome} ${upstream}::${tool} ${'record' in result ? result.record.hash : ''}\n`);
    return 0;
  } finally {
    store.close();
  }
}
