/**
 * `npm run bench`: runs every bench section (proxy, sandbox, scanner, leak, scale) and prints their tables and targets.
 * Flags: --quick (200 calls per cell), --json FILE (all figures), --only a,b (a subset of sections; `scale:upstreams`
 * runs one part of a section that has several),
 * --profile (CPU hot spots of the bench process: the client and the in-process gateway, by file:line; the
 * out-of-process gateways are not sampled).
 * A missed target is reported, never turned into a non-zero exit; only a section that crashed exits non-zero.
 */
import { writeFileSync } from 'node:fs';
import os from 'node:os';
import { parseBenchArgs } from './args.ts';
import { ms, renderTable } from './format.ts';
import { startProfiler, type ProfileSummary } from './profile.ts';
import { hostCpuTimes, stealShare } from './proc-cpu.ts';
import { leakSection } from './sections/leak-check.ts';
import { proxySection } from './sections/proxy-overhead.ts';
import { sandboxSection } from './sections/sandbox.ts';
import { scaleSection } from './sections/scale.ts';
import { scannerSection } from './sections/scanner.ts';
import type { Section, SectionResult } from './types.ts';
import { captureWarnings } from './warnings.ts';

/** Every section, in run order; add new sections here. */
export const SECTIONS: readonly Section[] = [
  proxySection,
  sandboxSection,
  scannerSection,
  leakSection,
  scaleSection,
];

function printSection(name: string, result: SectionResult): void {
  console.log(`\n== ${name} ==`);
  for (const table of result.tables) console.log(`\n${renderTable(table)}`);
  if (result.lines.length > 0) console.log('');
  for (const line of result.lines) console.log(line);
  for (const target of result.targets) {
    console.log(`${target.pass ? 'PASS' : 'MISS'}  ${target.name}: ${target.detail}`);
  }
}

/** Steal is time the hypervisor gave our vCPUs to other guests: timings of the section are inflated by it. */
function stealLine(share: number): string {
  const pct = (share * 100).toFixed(1);
  const note =
    share >= 0.05 ? ': the host was busy, so latencies and calls/s above are worse than on a quiet one' : '';
  return `host CPU steal during this section: ${pct}%${note}`;
}

function printProfile(summary: ProfileSummary): void {
  const share = (value: number) => `${((100 * value) / summary.totalMs).toFixed(1)}%`;
  console.log(
    `\n== profile ==\n\nsampled ${ms(summary.totalMs)} ms: idle ${share(summary.idleMs)}, ` +
      `under gateway (src/) frames ${share(summary.gatewayMs)} (bench client, SDK and upstream I/O make the rest)`,
  );
  const spots = (title: string, list: ProfileSummary['bySelf']) =>
    renderTable({
      title,
      columns: ['function (src/file:line of its start)', 'self ms', 'inclusive ms', 'inclusive'],
      rows: list.map((s) => [s.where, ms(s.selfMs), ms(s.inclusiveMs), share(s.inclusiveMs)]),
    });
  console.log(`\n${spots('Gateway functions by inclusive time', summary.byInclusive)}`);
  console.log(`\n${spots('Gateway functions by self time', summary.bySelf)}`);
  console.log(
    `\n${renderTable({
      title: 'Self time by origin (whole process)',
      columns: ['origin', 'self ms', 'share'],
      rows: summary.byOrigin.map((o) => [o.origin, ms(o.selfMs), share(o.selfMs)]),
    })}`,
  );
}

async function main(): Promise<void> {
  const args = parseBenchArgs(process.argv.slice(2));
  const unknown = args.only.filter((name) => !SECTIONS.some((s) => s.name === name));
  if (unknown.length > 0) throw new Error(`unknown section(s): ${unknown.join(', ')}`);
  for (const [name, parts] of Object.entries(args.parts)) {
    const known = SECTIONS.find((s) => s.name === name)?.parts ?? [];
    const wrong = parts.filter((part) => !known.includes(part));
    if (wrong.length > 0)
      throw new Error(
        `unknown part(s) of ${name}: ${wrong.join(', ')} (known: ${known.join(', ') || 'none'})`,
      );
  }
  const chosen = args.only.length === 0 ? SECTIONS : SECTIONS.filter((s) => args.only.includes(s.name));
  const environment = {
    node: process.version,
    platform: `${os.platform()} ${os.arch()}`,
    cpus: `${os.cpus().length} x ${os.cpus()[0]?.model ?? 'unknown'}`,
    loadAverage: os.loadavg().map((l) => Number(l.toFixed(2))),
    startedAt: new Date().toISOString(),
  };
  console.log(
    `Portcullis bench: node ${environment.node}, ${environment.platform}, ${environment.cpus}, ` +
      `load average ${environment.loadAverage.join(' ')}${args.options.quick ? ', --quick' : ''}`,
  );
  const warnings = captureWarnings();
  const profiler = args.profile ? await startProfiler() : undefined;
  const sections: Record<string, unknown> = {};
  let failed = false;
  for (const section of chosen) {
    try {
      const before = hostCpuTimes();
      const parts = args.parts[section.name];
      const result = await section.run(parts === undefined ? args.options : { ...args.options, parts });
      const steal = stealShare(before, hostCpuTimes());
      sections[section.name] = { ...result.figures, targets: result.targets, hostStealShare: steal };
      printSection(section.name, result);
      if (!Number.isNaN(steal)) console.log(stealLine(steal));
    } catch (error) {
      failed = true;
      const message = error instanceof Error ? error.message : String(error);
      sections[section.name] = { error: error instanceof Error ? (error.stack ?? message) : message };
      console.log(`\n== ${section.name} ==\nERROR ${message}`);
    }
  }
  const profile = profiler ? await profiler.stop() : undefined;
  if (profile) printProfile(profile);
  const warningCounts = warnings.counts();
  warnings.restore();
  const counted = Object.entries(warningCounts);
  console.log(
    `\nprocess warnings: ${counted.length === 0 ? 'none' : counted.map(([name, n]) => `${n} ${name}`).join(', ')}`,
  );
  if (args.jsonFile) {
    const document = { environment, options: args.options, sections, warnings: warningCounts, profile };
    writeFileSync(args.jsonFile, `${JSON.stringify(document, null, 2)}\n`);
    console.log(`figures written to ${args.jsonFile}`);
  }
  // A section that crashed measured nothing: that is an error, unlike a missed target.
  process.exitCode = failed ? 1 : 0;
}

await main();
