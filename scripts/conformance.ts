/**
 * `npm run conformance`: starts Portcullis in-process on 127.0.0.1 with the conformance fixture as its stdio
 * upstream, runs the official MCP conformance suite's server scenarios against the gateway's /mcp, prints the
 * summary and compares it with conformance/baseline.json. Exits 1 only on a regression (a scenario that does
 * not pass and is not in the baseline), 2 when the run could not be set up, 3 when it hung past its deadline.
 *
 * Options: --scenario NAME (repeatable), --direct (reference run against the fixture without the gateway, no
 * baseline), --upstream-protocol auto|legacy|modern, --timeout SECONDS (default 240), --verbose.
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
  runSuite,
  serveFixtureDirect,
  startGatewayUnderTest,
  suiteVersion,
  type RunningEndpoint,
  type UpstreamProtocol,
} from '../conformance/index.ts';
import { processEnvLookup } from '../src/config/index.ts';

const BASELINE_FILE = path.join(REPO_ROOT, 'conformance/baseline.json');
const PROTOCOLS: readonly UpstreamProtocol[] = ['auto', 'legacy', 'modern'];

const print = (lines: string | readonly string[]) =>
  process.stdout.write(`${typeof lines === 'string' ? lines : lines.join('\n')}\n`);

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      scenario: { type: 'string', multiple: true },
      direct: { type: 'boolean', default: false },
      'upstream-protocol': { type: 'string', default: 'auto' },
      timeout: { type: 'string', default: '240' },
      verbose: { type: 'boolean', default: false },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help) {
    print(
      'usage: npm run conformance -- [--scenario NAME]... [--direct] [--upstream-protocol auto|legacy|modern] ' +
        '[--timeout SECONDS] [--verbose]',
    );
    return 0;
  }
  const protocol = values['upstream-protocol'] as UpstreamProtocol;
  const timeoutMs = Number(values.timeout) * 1000;
  if (!PROTOCOLS.includes(protocol) || !(timeoutMs > 0)) {
    print('conformance: --upstream-protocol must be auto, legacy or modern; --timeout a positive number');
    return 2;
  }
  // A hung run must still end by itself: this fires only if closing or the suite overran every deadline.
  setTimeout(() => {
    print('conformance: run exceeded its deadline; exiting');
    process.exit(3);
  }, timeoutMs + 90_000).unref();

  const nodePath = process.execPath;
  const known = await listServerScenarios(nodePath);
  const selected = values.scenario ?? known;
  const unknown = selected.filter((s) => !known.includes(s));
  if (unknown.length > 0) {
    print(`conformance: unknown scenario(s): ${unknown.join(', ')}\nknown: ${known.join(', ')}`);
    return 2;
  }
  const runDir = path.join(
    REPO_ROOT,
    '.conformance',
    `run-${new Date().toISOString().replace(/[:.]/g, '-')}`,
  );
  const resultsDir = path.join(runDir, 'results');
  mkdirSync(resultsDir, { recursive: true });

  let target: RunningEndpoint;
  let targetLabel: string;
  if (values.direct) {
    target = await serveFixtureDirect();
    targetLabel = 'the fixture directly (reference run, no gateway)';
  } else {
    const gateway = await startGatewayUnderTest({
      workDir: runDir,
      nodePath,
      protocol,
      lookup: processEnvLookup(),
    });
    target = gateway;
    const up = gateway.upstream;
    targetLabel =
      `Portcullis in front of the fixture (upstream ${up.state}, era ${up.era ?? '-'}, ` +
      `${up.tools} tools, ${up.prompts} prompts, ${up.resources} resources)`;
    if (up.state !== 'connected' || up.tools !== CONFORMANCE_TOOLS.length) {
      print(
        `conformance: the fixture upstream did not come up as expected: ${targetLabel}; see ${gateway.logFile}`,
      );
      await target.close();
      return 2;
    }
  }

  print([
    `MCP conformance ${suiteVersion()} (server scenarios) on Node ${process.versions.node}`,
    `Target: ${targetLabel} at ${target.url}`,
    `Running ${selected.length} scenario(s); suite output and logs in ${path.relative(REPO_ROOT, runDir)}/`,
    '',
  ]);
  const run = await runSuite({
    nodePath,
    url: target.url,
    outputDir: resultsDir,
    ...(values.scenario ? { scenarios: values.scenario } : {}),
    logFile: path.join(runDir, 'suite.log'),
    echo: values.verbose,
    timeoutMs,
  });
  await target.close();

  const outcomes = collectOutcomes(selected, readScenarioChecks(resultsDir));
  print(formatSummary(outcomes));
  if (run.timedOut)
    print(`\nThe suite was stopped after ${timeoutMs / 1000}s; scenarios without result count as failing.`);
  print('');

  if (values.direct) return outcomes.every((o) => o.status === 'pass') ? 0 : 1;

  const baseline = loadBaseline(BASELINE_FILE);
  if (baseline.conformance !== suiteVersion()) {
    print(
      `Note: the baseline was written for conformance ${baseline.conformance}, this is ${suiteVersion()}.`,
    );
  }
  const comparison = compareWithBaseline(outcomes, baseline, known);
  print(formatComparison(comparison));
  return comparison.failed ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    print(`conformance: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    process.exit(2);
  },
);
