/**
 * conformance: runs the official MCP conformance suite (`@modelcontextprotocol/conformance`, server scenarios)
 * against Portcullis placed in front of a fixture upstream that implements the suite's test tools, prompts and
 * resources, and compares the outcome with the committed baseline of scenarios that do not pass yet.
 */
export { compareWithBaseline, loadBaseline, parseBaseline } from './baseline.ts';
export type { Baseline, Comparison, Verdict } from './baseline.ts';
export {
  CONFORMANCE_PROMPTS,
  CONFORMANCE_RESOURCES,
  CONFORMANCE_TEMPLATE,
  CONFORMANCE_TOOLS,
  FIXTURE_UPSTREAM_ID,
} from './contract.ts';
export type { ConformanceToolName } from './contract.ts';
export { closeServer, createMemoryEventStore, serveFixtureDirect } from './direct-http.ts';
export type { RunningEndpoint } from './direct-http.ts';
export { createFixtureServer } from './fixture-server.ts';
export { gatewayDocument, REPO_ROOT, startGatewayUnderTest } from './gateway-under-test.ts';
export type { GatewayUnderTestOptions, RunningGateway, UpstreamProtocol } from './gateway-under-test.ts';
export { formatComparison, formatSummary } from './report.ts';
export { classifyScenario, collectOutcomes, readScenarioChecks } from './results.ts';
export type { ScenarioOutcome, ScenarioStatus, SuiteCheck } from './results.ts';
export {
  listServerScenarios,
  REQUIREMENT_SETS,
  runSuite,
  SUITE_CLI,
  SUITE_NODE,
  suiteVersion,
} from './run-suite.ts';
export type { RequirementSet, ScenarioListing, SuiteRunOptions, SuiteRunResult } from './run-suite.ts';
