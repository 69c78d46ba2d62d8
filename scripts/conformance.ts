/**
 * `npm run conformance`: runs the MCP conformance suite 0.2.x (on its own Node 22 binary) against Portcullis,
 * started in-process on 127.0.0.1 with the conformance fixture as its stdio upstream, once per requirement set
 * (`--requirements 2026-07-28`, `--requirements 2025-11-25`) and upstream era (the gateway speaks legacy, then
 * modern, to the fixture); prints a summary per run and compares each with conformance/baseline.json.
 * Exits 1 only on a regression (a scenario that does not pass and is not in the baseline), 2 when a run could
 * not be set up, 3 when it hung past its deadline.
 *
 * Options: --requirements 2026-07-28|2025-11-25 (repeatable; default both), --upstream-protocol
 * auto|legacy|modern (repeatable; default legacy and modern), --scenario NAME (repeatable), --direct (reference
 * run against the fixture without the gateway, no baseline), --timeout SECONDS per run (default 300), --verbose.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import {
  collectOutcomes,
  compareWithBaseline,
  CONFORMANCE_TOOLS,
  formatComparison,
  formatSummary,
  listServerScenarios,
  loadBaseline,
  readScenarioChecks,
  REPO_ROOT,
  REQUIREMENT_SETS,
  runSuite,
  serveFixtureDirect,
  startGatewayUnderTest,
  suiteVersion,
  type RequirementSet,
  type RunningEndpoint,
  type ScenarioOutcome,
  type UpstreamProtocol,
} from '../conformance/index.ts';
import { processEnvLookup } from '../src/config/index.ts';

const BASELINE_FILE = path.join(REPO_ROOT, 'conformance/baseline.json');
const PROTOCOLS: readonly UpstreamProtocol[] = ['auto', 'legacy', 'modern'];

const print = (lines: string | readonly string[]) =>
  process.stdout.write(`${typeof lines === 'string' ? lines : lines.join('\n')}\n`);

/** One run's tally for the closing table. */
interface RunTally {
  label: string;
  pass: number;
  expected: number;
  flaky: number;
  fixed: number;
  regressions: number;
}

const isRequirementSet = (value: string): value is RequirementSet =>
  (REQUIREMENT_SETS as readonly string[]).includes(value);
const isProtocol = (value: string): value is UpstreamProtocol =>
  (PROTOCOLS as readonly string[]).includes(value);

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      requirements: { type: 'string', multiple: true },
      'upstream-protocol': { type: 'string', multiple: true },
      scenario: { type: 'string', multiple: true },
      direct: { type: 'boolean', default: false },
      timeout: { type: 'string', default: '300' },
      verbose: { type: 'boolean', default: false },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help) {
    print(
      'usage: npm run conformance -- [--requirements 2026-07-28|2025-11-25]... ' +
        '[--upstream-protocol auto|legacy|modern]... [--scenario NAME]... [--direct] [--timeout SECONDS] [--verbose]',
    );
    return 0;
  }
  const sets = values.requirements ?? [...REQUIREMENT_SETS];
  const protocols = values['upstream-protocol'] ?? ['legacy', 'modern'];
  const timeoutMs = Number(values.timeout) * 1000;
  if (!sets.every(isRequirementSet) || !protocols.every(isProtocol) || !(timeoutMs > 0)) {
    print(
      `conformance: --requirements must be one of ${REQUIREMENT_SETS.join(', ')}; --upstream-protocol auto, ` +
        'legacy or modern; --timeout a positive number',
    );
    return 2;
  }
  const eras: (UpstreamProtocol | 'direct')[] = values.direct ? ['direct'] : protocols;
  // A hung run must still end by itself: this fires only if closing or the suite overran every deadline.
  setTimeout(
    () => {
      print('conformance: run exceeded its deadline; exiting');
      process.exit(3);
    },
    (timeoutMs + 90_000) * sets.length * eras.length,
  ).unref();

  const runDir = path.join(
    REPO_ROOT,
    '.conformance',
    `run-${new Date().toISOString().replace(/[:.]/g, '-')}`,
  );
  const baseline = loadBaseline(BASELINE_FILE);
  const all = (await listServerScenarios()).required;
  print([
    `MCP conformance ${suiteVersion()} (server scenarios); suite on its Node 22 binary, gateway on Node ` +
      `${process.versions.node}; output in ${path.relative(REPO_ROOT, runDir)}/`,
    baseline.conformance === suiteVersion()
      ? ''
      : `Note: the baseline was written for conformance ${baseline.conformance}, this is ${suiteVersion()}.\n`,
  ]);

  const tallies: RunTally[] = [];
  let regressions = false;
  for (const requirements of sets) {
    const listing = await listServerScenarios(requirements);
    const known = [...listing.required, ...listing.unscored];
    const unknown = (values.scenario ?? []).filter((s) => !known.includes(s));
    if (unknown.length > 0) {
      print(`conformance: not in ${requirements}: ${unknown.join(', ')}\nknown: ${known.join(', ')}`);
      return 2;
    }
    const selected = values.scenario ?? known;
    for (const era of eras) {
      const label = `${requirements} / ${era === 'direct' ? 'fixture direct' : `upstream ${era}`}`;
      const outcomes = await runOnce(
        requirements,
        era,
        selected,
        path.join(runDir, `${requirements}-${era}`),
      );
      if (outcomes === undefined) return 2;
      print([`== ${label}`, ...formatSummary(outcomes), '']);
      if (era === 'direct') continue;
      const comparison = compareWithBaseline(outcomes, baseline, all, { requirements, era });
      print([...formatComparison(comparison), '']);
      regressions ||= comparison.failed;
      const count = (kind: string) => comparison.verdicts.filter((v) => v.kind === kind).length;
      tallies.push({
        label,
        pass: count('pass'),
        expected: count('expected'),
        flaky: count('flaky'),
        fixed: count('fixed'),
        regressions: count('regression'),
      });
    }
  }
  if (tallies.length > 0) {
    print('Run                              pass  baseline  flaky  fixed  new');
    for (const t of tallies) {
      print(
        `${t.label.padEnd(32)} ${String(t.pass).padStart(5)} ${String(t.expected).padStart(9)} ` +
          `${String(t.flaky).padStart(6)} ${String(t.fixed).padStart(6)} ${String(t.regressions).padStart(4)}`,
      );
    }
  }
  return regressions ? 1 : 0;

  async function runOnce(
    requirements: RequirementSet,
    era: UpstreamProtocol | 'direct',
    selected: readonly string[],
    dir: string,
  ): Promise<ScenarioOutcome[] | undefined> {
    const resultsDir = path.join(dir, 'results');
    mkdirSync(resultsDir, { recursive: true });
    let target: RunningEndpoint;
    if (era === 'direct') {
      target = await serveFixtureDirect();
    } else {
      const gateway = await startGatewayUnderTest({
        workDir: dir,
        nodePath: process.execPath,
        protocol: era,
        lookup: processEnvLookup(),
      });
      target = gateway;
      const up = gateway.upstream;
      if (up.state !== 'connected' || up.tools !== CONFORMANCE_TOOLS.length) {
        print(
          `conformance: the fixture upstream did not come up as expected (${up.state}, era ${up.era ?? '-'}, ` +
            `${up.tools} tools); see ${gateway.logFile}`,
        );
        await target.close();
        return undefined;
      }
    }
    const run = await runSuite({
      url: target.url,
      requirements,
      outputDir: resultsDir,
      ...(values.scenario ? { scenarios: values.scenario } : {}),
      logFile: path.join(dir, 'suite.log'),
      echo: values.verbose,
      timeoutMs,
    });
    await target.close();
    if (run.timedOut)
      print(`The suite was stopped after ${timeoutMs / 1000}s; scenarios without result fail.`);
    return collectOutcomes(selected, readScenarioChecks(resultsDir));
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    print(`conformance: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    process.exit(2);
  },
);
