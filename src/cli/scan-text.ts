/** The terminal form of a scan report: each server with its risk chip, its tools, then findings on other surfaces. */
import type { ScanReport } from './scan-report.ts';

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
    const label = server.name === server.id ? server.id : `${server.name} (as ${server.id})`;
    lines.push(
      `${chip(server.level)} ${label}  (${server.transport}, score ${server.totalScore ?? '-'}, catalog ${server.catalog ?? 'none'})${floor}${state}`,
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
    for (const finding of report.findings.filter(
      (f) =>
        f.server === server.name &&
        (f.category === 'shadowing' ||
          (f.subject !== 'tool' &&
            f.subject !== 'server' &&
            (f.category === 'poisoning' || f.category === 'exposure'))),
    ))
      lines.push(`    ! ${finding.message}`);
  }
  const local = report.tools.filter((t) => t.upstream === null);
  if (local.length > 0) {
    lines.push('local tools (Safe Tool Specs)');
    for (const tool of local)
      lines.push(
        `    ${chip(tool.final)} ${tool.alias}${tool.exposed ? '' : `  (withheld: ${tool.withheldReason})`}`,
      );
  }
  const counts = new Map<string, number>();
  for (const tool of report.tools) counts.set(tool.final ?? '--', (counts.get(tool.final ?? '--') ?? 0) + 1);
  const levels = { error: 0, warning: 0, note: 0 };
  for (const finding of report.findings) levels[finding.level] += 1;
  lines.push('');
  lines.push(
    `${report.servers.length} servers, ${report.tools.length} tools (${[...counts]
      .sort()
      .map(([k, v]) => `${k}: ${v}`)
      .join(', ')}); findings: ${levels.error} error, ${levels.warning} warning, ${levels.note} note; ` +
      `fail-on ${report.failOn}: ${report.failed ? 'FAIL' : 'ok'}`,
  );
  return `${lines.join('\n')}\n`;
}
