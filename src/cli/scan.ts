/**
 * `portcullis scan`: connects to the configured upstreams (without serving anything) and prints every server
 * and tool with its risk chip, floor, poisoning hits and fingerprint status; exits 1 when anything is at or
 * above --fail-on (default L5), is poisoned, or awaits re-review — for CI, like a linter.
 */
import { buildCore, type AppCore } from '../app/index.ts';
import { isRiskAtLeast, isRiskLevel, type RiskLevel } from '../risk/index.ts';
import type { CommandIo } from './args.ts';
import { parseCommandArgs, parseSeconds } from './args.ts';
import { appFromProcess } from './process-env.ts';

interface ToolLine {
  alias: string;
  upstream: string | null;
  exposed: boolean;
  withheldReason: string | null;
  withheldDetail: string | null;
  final: string | null;
  effective: string | null;
  floorTrigger: string | null;
  fingerprint: string | null;
  poisoning: { patternId: string; fieldPath: string; matchedText: string }[];
}

/** The report `scan` prints, also its --json form. */
export interface ScanReport {
  failOn: RiskLevel;
  failed: boolean;
  servers: {
    id: string;
    state: string;
    transport: string;
    level: string | null;
    totalScore: number | null;
    floorTrigger: string | null;
    catalog: string | null;
    lastError: string | null;
  }[];
  tools: ToolLine[];
}

/** Builds the report from a gateway whose upstreams have settled. */
export function buildScanReport(
  gateway: Pick<AppCore, 'governance' | 'supervisor' | 'masker' | 'registry'>,
  failOn: RiskLevel,
): ScanReport {
  const assessments = gateway.governance.servers();
  const servers = gateway.supervisor.snapshots().map((s) => {
    const risk = assessments.get(s.id)?.risk;
    return {
      id: s.id,
      state: s.state,
      transport: s.transport,
      level: risk?.level ?? null,
      totalScore: risk?.totalScore ?? null,
      floorTrigger: risk?.floorTrigger ?? null,
      catalog: assessments.get(s.id)?.catalogId ?? null,
      lastError: s.lastError === undefined ? null : gateway.masker.mask(s.lastError),
    };
  });
  const tools: ToolLine[] = gateway.registry.all().map((t) => {
    const risk = t.governance?.risk;
    const matches = (t.governance?.poisoning?.matches ?? []) as ToolLine['poisoning'];
    return {
      alias: t.alias,
      upstream: t.upstream ?? null,
      exposed: t.exposed,
      withheldReason: t.withheldReason ?? null,
      withheldDetail: t.withheldDetail ?? null,
      final: risk?.final ?? null,
      effective: risk?.effective ?? null,
      floorTrigger: risk?.floorTrigger ?? null,
      fingerprint: t.governance?.fingerprint?.status ?? null,
      poisoning: matches.map((m) => ({
        patternId: m.patternId,
        fieldPath: m.fieldPath,
        matchedText: m.matchedText,
      })),
    };
  });
  const high = (level: string | null) => level !== null && isRiskLevel(level) && isRiskAtLeast(level, failOn);
  const failed =
    servers.some((s) => high(s.level) || s.state !== 'connected') ||
    tools.some(
      (t) =>
        high(t.final) || t.poisoning.length > 0 || (t.fingerprint !== null && t.fingerprint !== 'ACTIVE'),
    );
  return { failOn, failed, servers, tools };
}

const chip = (level: string | null) => `[${level ?? '--'}]`;

/** Renders the report for a terminal. */
export function renderScanReport(report: ScanReport): string {
  const lines: string[] = [];
  for (const server of report.servers) {
    const floor = server.floorTrigger ? `  floor: ${server.floorTrigger}` : '';
    const state =
      server.state === 'connected'
        ? ''
        : `  ${server.state.toUpperCase()}${server.lastError ? `: ${server.lastError}` : ''}`;
    lines.push(
      `${chip(server.level)} ${server.id}  (${server.transport}, score ${server.totalScore ?? '-'}, catalog ${server.catalog ?? 'none'})${floor}${state}`,
    );
    for (const tool of report.tools.filter((t) => t.upstream === server.id)) {
      const flags = [
        tool.effective && tool.effective !== tool.final ? `effective ${tool.effective}` : '',
        tool.floorTrigger ? `floor: ${tool.floorTrigger}` : '',
        tool.fingerprint && tool.fingerprint !== 'ACTIVE' ? `fingerprint: ${tool.fingerprint}` : '',
        tool.exposed
          ? ''
          : `withheld: ${tool.withheldReason}${tool.withheldDetail ? ` (${tool.withheldDetail})` : ''}`,
      ].filter(Boolean);
      lines.push(`    ${chip(tool.final)} ${tool.alias}${flags.length > 0 ? `  (${flags.join('; ')})` : ''}`);
      for (const hit of tool.poisoning) {
        lines.push(
          `        ! ${hit.patternId} at ${hit.fieldPath}: ${JSON.stringify(hit.matchedText.slice(0, 60))}`,
        );
      }
    }
  }
  const local = report.tools.filter((t) => t.upstream === null);
  if (local.length > 0) {
    lines.push('local tools (Safe Tool Specs)');
    for (const tool of local)
      lines.push(
        `    ${chip(tool.final)} ${tool.alias}${tool.exposed ? '' : `  (withheld: ${tool.withheldReason})`}`,
      );
  }
  const counts = report.tools.reduce<Record<string, number>>((acc, t) => {
    const key = t.final ?? '--';
    acc[key] = (acc[key] ?? 0) + 1;
    return acc;
  }, {});
  lines.push('');
  lines.push(
    `${report.servers.length} servers, ${report.tools.length} tools (${Object.entries(counts)
      .sort()
      .map(([k, v]) => `${k}: ${v}`)
      .join(', ')}); fail-on ${report.failOn}: ${report.failed ? 'FAIL' : 'ok'}`,
  );
  return `${lines.join('\n')}\n`;
}

/** Runs `portcullis scan`. */
export async function runScan(args: string[], io: CommandIo): Promise<number> {
  const { values } = parseCommandArgs(args, {
    json: { type: 'boolean' },
    'fail-on': { type: 'string' },
    timeout: { type: 'string' },
  });
  if (values.help) {
    io.stdout('usage: portcullis scan [--config FILE] [--json] [--fail-on L0..L5] [--timeout SECONDS]\n');
    return 0;
  }
  const failOn = values['fail-on'] ?? 'L5';
  if (!isRiskLevel(failOn)) {
    io.stderr(`portcullis scan: --fail-on must be one of L0..L5, not "${failOn}"\n`);
    return 2;
  }
  const timeoutSeconds = values.timeout === undefined ? 60 : parseSeconds('--timeout', values.timeout);
  const { config, deps } = appFromProcess(values.config, io.cwd);
  const gateway = buildCore(config, { ...deps, writeLog: () => {} });
  gateway.start();
  try {
    await gateway.ready(timeoutSeconds * 1000);
    gateway.registry.rebuild();
    const report = buildScanReport(gateway, failOn);
    io.stdout(values.json ? `${JSON.stringify(report, null, 2)}\n` : renderScanReport(report));
    return report.failed ? 1 : 0;
  } finally {
    await gateway.close();
  }
}
