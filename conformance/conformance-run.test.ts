/**
 * The conformance pipeline end to end on a few scenarios: the real suite CLI (0.2.x, on its Node 22 binary)
 * against Portcullis (in-process, fixture over stdio) at the 2026-07-28 wire, and against the fixture served
 * directly (sessionful HTTP, so at the 2025-11-25 wire), compared with the committed baseline.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { processEnvLookup } from '../src/config/index.ts';
import { compareWithBaseline, loadBaseline } from './baseline.ts';
import { CONFORMANCE_PROMPTS, CONFORMANCE_TOOLS } from './contract.ts';
import { serveFixtureDirect, type RunningEndpoint } from './direct-http.ts';
import { REPO_ROOT, startGatewayUnderTest } from './gateway-under-test.ts';
import { collectOutcomes, readScenarioChecks } from './results.ts';
import { listServerScenarios, runSuite, type RequirementSet } from './run-suite.ts';

const GATEWAY_SCENARIOS = [
  'tools-call-simple-text',
  'json-schema-2020-12',
  'prompts-get-simple',
  'input-required-result-basic-elicitation',
];
const DIRECT_SCENARIOS = ['tools-call-simple-text', 'tools-call-elicitation', 'json-schema-2020-12'];
const baseline = loadBaseline(path.join(REPO_ROOT, 'conformance/baseline.json'));

async function runAgainst(
  target: RunningEndpoint,
  workDir: string,
  requirements: RequirementSet,
  scenarios: readonly string[],
) {
  const outputDir = path.join(workDir, 'results');
  try {
    const run = await runSuite({
      url: target.url,
      requirements,
      outputDir,
      scenarios,
      logFile: path.join(workDir, 'suite.log'),
      echo: false,
      timeoutMs: 120_000,
    });
    expect(run.timedOut).toBe(false);
  } finally {
    await target.close();
  }
  return collectOutcomes(scenarios, readScenarioChecks(outputDir));
}

describe('npm run conformance, in small', () => {
  it('the committed baseline names only scenarios the installed suite has', async () => {
    const known = (await listServerScenarios()).required;
    expect(known).toContain('tools-call-simple-text');
    expect(known).toContain('input-required-result-basic-elicitation');
    expect(compareWithBaseline([], baseline, known).unknownEntries).toEqual([]);
  });

  it('through the gateway, every scenario passes or is a known failure', async () => {
    const workDir = mkdtempSync(path.join(tmpdir(), 'conformance-gateway-'));
    const gateway = await startGatewayUnderTest({
      workDir,
      nodePath: process.execPath,
      protocol: 'modern',
      lookup: processEnvLookup(),
    });
    expect(gateway.upstream).toMatchObject({
      state: 'connected',
      tools: CONFORMANCE_TOOLS.length,
      prompts: CONFORMANCE_PROMPTS.length,
    });
    const outcomes = await runAgainst(gateway, workDir, '2026-07-28', GATEWAY_SCENARIOS);
    const status = Object.fromEntries(outcomes.map((o) => [o.scenario, o.status]));
    expect(status).toMatchObject({
      'tools-call-simple-text': 'pass',
      'json-schema-2020-12': 'pass', // the SEP-2106 keywords cross the gateway
      'prompts-get-simple': 'pass', // the prompt's alias override keeps the suite's name
    });
    const scope = { requirements: '2026-07-28', era: 'modern' };
    const comparison = compareWithBaseline(outcomes, baseline, GATEWAY_SCENARIOS, scope);
    expect(comparison.verdicts.filter((v) => v.kind === 'regression' || v.kind === 'fixed')).toEqual([]);
  });

  it('against the fixture directly, every scenario passes', async () => {
    const workDir = mkdtempSync(path.join(tmpdir(), 'conformance-direct-'));
    const outcomes = await runAgainst(await serveFixtureDirect(), workDir, '2025-11-25', DIRECT_SCENARIOS);
    expect(outcomes.map((o) => [o.scenario, o.status])).toEqual(DIRECT_SCENARIOS.map((s) => [s, 'pass']));
  });
});
