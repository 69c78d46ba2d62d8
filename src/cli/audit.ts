/**
 * `portcullis audit verify [--anchor SEQ:DIGEST] | tail [-n N] [--follow] | export [--since ISO] [--until ISO]
 * --format jsonl`, over the database given with `--db` (the main CLI turns `--config` into that path).
 */
import { existsSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import { createAuditLog, entryJsonLine, parseAuditAnchor, verifyAuditChain } from '../audit/index.ts';
import type { AuditAnchor, AuditEntry, AuditLog, JournalRecovery } from '../audit/index.ts';
import { isPortcullisError } from '../errors/index.ts';
import { openStore } from '../store/index.ts';
import type { Store } from '../store/index.ts';

/** Where the audit command writes, and how `tail --follow` is stopped. */
export interface AuditCommandIo {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  /** Stops `tail --follow` (the main CLI aborts it on SIGINT). */
  signal?: AbortSignal;
  /** How often `tail --follow` looks for new records, in ms (default 1000). */
  pollIntervalMs?: number;
}

const USAGE = `usage: portcullis audit <command> --db PATH
  verify [--anchor SEQ:DIGEST ...]         check the hash chain (exit 1 when broken); each --anchor is a
                                           head printed by an earlier verify, kept where this host cannot
                                           write, and must still match
  tail [-n N] [--follow] [--format text|jsonl]
                                           the newest N records (default 10), then new ones as they come
  export [--since ISO] [--until ISO] [--format jsonl]
                                           every matching record, oldest first, one JSON object a line
`;

const OPTIONS = {
  db: { type: 'string' },
  lines: { type: 'string', short: 'n' },
  follow: { type: 'boolean', short: 'f' },
  since: { type: 'string' },
  until: { type: 'string' },
  format: { type: 'string' },
  anchor: { type: 'string', multiple: true },
  help: { type: 'boolean', short: 'h' },
} as const;

type Values = ReturnType<typeof parseArgs<{ options: typeof OPTIONS; allowPositionals: true }>>['values'];

class UsageError extends Error {}

/** Runs one audit subcommand and resolves to its exit code (0 ok, 1 chain broken, 2 usage or input error). */
export async function runAuditCommand(args: readonly string[], io: AuditCommandIo): Promise<number> {
  let store: Store | undefined;
  try {
    const { values, positionals } = parseArgs({ args: [...args], options: OPTIONS, allowPositionals: true });
    if (values.help) {
      io.stdout(USAGE);
      return 0;
    }
    const [command, ...extra] = positionals;
    if (command === undefined) throw new UsageError('missing command');
    if (!['verify', 'tail', 'export'].includes(command)) throw new UsageError(`unknown command ${command}`);
    if (extra.length > 0) throw new UsageError(`unexpected argument ${extra[0] as string}`);
    if (values.db === undefined) throw new UsageError('missing --db PATH');
    if (values.db !== ':memory:' && !existsSync(values.db)) {
      io.stderr(`no audit database at ${values.db}\n`);
      return 2;
    }
    store = openStore({ path: values.db });
    reportRecovery(createAuditLog(store).recoverJournals(), io);
    if (command !== 'verify' && values.anchor !== undefined)
      throw new UsageError('--anchor is a verify option');
    if (command === 'verify') return verify(store, anchorsOf(values.anchor ?? []), io);
    const log = createAuditLog(store);
    if (command === 'tail') return await tail(log, values, io);
    return exportRecords(log, values, io);
  } catch (error) {
    if (error instanceof UsageError || isNodeArgError(error)) {
      io.stderr(`${(error as Error).message}\n${USAGE}`);
      return 2;
    }
    if (isPortcullisError(error)) {
      io.stderr(`${error.code}: ${error.message}\n`);
      return 2;
    }
    throw error;
  } finally {
    store?.close();
  }
}

/** Journals of gateways that stopped without storing them hold records too: they are stored first. */
function reportRecovery(recovery: JournalRecovery, io: AuditCommandIo): void {
  if (recovery.journals === 0) return;
  const skipped =
    recovery.unreadableLines > 0 ? `, ${recovery.unreadableLines} unreadable lines skipped` : '';
  io.stderr(
    `stored ${recovery.appended} records from ${recovery.journals} journal(s) of stopped gateways${skipped}\n`,
  );
}

function anchorsOf(texts: readonly string[]): AuditAnchor[] {
  return texts.map((text) => {
    const anchor = parseAuditAnchor(text);
    if (!anchor) throw new UsageError(`--anchor needs SEQ:DIGEST (a 64-digit hex sha256), got ${text}`);
    return anchor;
  });
}

function verify(store: Store, anchors: readonly AuditAnchor[], io: AuditCommandIo): number {
  const verdict = verifyAuditChain(store, anchors);
  if (verdict.ok) {
    const head = verdict.headDigest ? `, head ${verdict.headSeq}:${verdict.headDigest}` : '';
    const checked = anchors.length > 0 ? `, ${anchors.length} anchor(s) match` : '';
    io.stdout(`audit chain ok: ${verdict.rows} records${head}${checked}\n`);
    return 0;
  }
  io.stderr(`audit chain BROKEN (${verdict.problem}): ${verdict.detail}\n`);
  return 1;
}

async function tail(log: AuditLog, values: Values, io: AuditCommandIo): Promise<number> {
  const lines = values.lines === undefined ? 10 : Number(values.lines);
  if (!Number.isInteger(lines) || lines < 0)
    throw new UsageError(`-n needs a whole number, got ${values.lines}`);
  const format = values.format ?? 'text';
  if (format !== 'text' && format !== 'jsonl') throw new UsageError(`unknown format ${format}`);
  const print = (entry: AuditEntry): void =>
    io.stdout(format === 'jsonl' ? `${entryJsonLine(entry)}\n` : `${textLine(entry)}\n`);

  const newest = lines === 0 ? [] : log.query({ limit: lines }).entries;
  for (const entry of [...newest].reverse()) print(entry);
  if (!values.follow) return 0;

  let cursor = newest[0]?.seq ?? latestSeq(log);
  const interval = io.pollIntervalMs ?? 1000;
  while (!io.signal?.aborted) {
    try {
      await sleep(interval, undefined, io.signal ? { signal: io.signal } : {});
    } catch {
      // The sleep rejects only when the signal aborts: the follow ends.
      break;
    }
    for (;;) {
      const page = log.query({ order: 'asc', limit: 100, ...(cursor > 0 ? { cursor: String(cursor) } : {}) });
      for (const entry of page.entries) {
        print(entry);
        cursor = entry.seq;
      }
      if (page.nextCursor === null) break;
    }
  }
  return 0;
}

function exportRecords(log: AuditLog, values: Values, io: AuditCommandIo): number {
  const format = values.format ?? 'jsonl';
  if (format !== 'jsonl') throw new UsageError(`export supports --format jsonl only, got ${format}`);
  if (values.lines !== undefined || values.follow) throw new UsageError('-n and --follow are tail options');
  log.exportJsonl(
    {
      ...(values.since === undefined ? {} : { since: values.since }),
      ...(values.until === undefined ? {} : { until: values.until }),
    },
    io.stdout,
  );
  return 0;
}

function latestSeq(log: AuditLog): number {
  return log.query({ limit: 1 }).entries[0]?.seq ?? 0;
}

function textLine(entry: AuditEntry): string {
  const r = entry.record;
  const target =
    r.origin === 'upstream'
      ? `${r.upstreamId}/${r.upstreamTool}`
      : r.origin === 'local'
        ? `local/${r.toolId}`
        : r.origin === 'admin'
          ? `admin/${r.target ?? '-'}`
          : `${r.origin}${r.upstreamId === null ? '' : `/${r.upstreamId}`}`;
  const approval = [r.approval.decision, r.approval.ruleId, r.approval.elicitation].filter(Boolean).join(':');
  const outcome = r.outcome === 'ERROR' ? `ERROR ${r.errorCode ?? ''}`.trim() : r.outcome;
  return [
    r.time,
    r.principal ?? '-',
    r.alias,
    target,
    r.risk?.final ?? '-',
    approval,
    outcome,
    `${r.durationMs}ms`,
  ].join('  ');
}

function isNodeArgError(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && code.startsWith('ERR_PARSE_ARGS_');
}
