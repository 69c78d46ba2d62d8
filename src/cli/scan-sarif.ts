/**
 * The SARIF 2.1.0 form of a scan report (one run; the driver lists every rule a result uses) so that CI code
 * scanning shows the findings on the scanned file: each result names its rule, level and message, a logical
 * location `server/subject/name/fieldPath`, a physical location (line and column in the file) when the scanned
 * file is JSON, and a partial fingerprint from the definition's digest so a finding keeps its identity.
 */
import path from 'node:path';
import { PORTCULLIS_VERSION, sha256Hex } from '../shared/index.ts';
import type { ScanFinding, ScanReport } from './scan-report.ts';

const SCHEMA = 'https://json.schemastore.org/sarif-2.1.0.json';

/** A plain-language description of each rule family, by id prefix. */
function describeRule(finding: ScanFinding): string {
  switch (finding.category) {
    case 'poisoning':
      return `Prompt-injection pattern ${finding.ruleId} in a model-visible string (docs/rules/poisoning.md)`;
    case 'shadowing':
      return `Shadowing rule ${finding.ruleId} between servers (docs/rules/risk-model.md)`;
    case 'risk':
      return finding.ruleId === 'risk-level'
        ? 'Risk level at or above L3 (docs/rules/risk-model.md)'
        : `Risk floor ${finding.ruleId.slice('risk-floor/'.length)} (docs/rules/risk-model.md)`;
    case 'server':
      return finding.ruleId === 'server-disabled'
        ? 'Server disabled in the client config'
        : 'Server could not be connected and scanned';
    case 'exposure':
      return 'Tool the gateway would not govern or expose as listed';
  }
}

function fingerprintOf(finding: ScanFinding): string {
  return sha256Hex(
    JSON.stringify([
      finding.ruleId,
      finding.server,
      finding.subject,
      finding.name,
      finding.fieldPath,
      finding.digest,
    ]),
  );
}

/** The SARIF log of `report`; `cwd` makes the scanned file's URI relative (as code scanning wants it). */
export function toSarif(report: ScanReport, cwd: string): Record<string, unknown> {
  const ruleIds = [...new Set(report.findings.map((f) => f.ruleId))].sort();
  const rules = ruleIds.map((id) => {
    const first = report.findings.find((f) => f.ruleId === id) as ScanFinding;
    return {
      id,
      name: id.replace(/[^A-Za-z0-9]+(.)?/g, (_m, c: string | undefined) => (c ?? '').toUpperCase()),
      shortDescription: { text: describeRule(first) },
      defaultConfiguration: { level: first.level },
      properties: { category: first.category },
    };
  });
  const relative = path.relative(cwd, path.resolve(cwd, report.source.file)).split(path.sep).join('/');
  const uri = relative.startsWith('..') ? path.resolve(cwd, report.source.file) : relative;
  const results = report.findings.map((f) => {
    const logical = [f.server, f.subject, f.name, f.fieldPath].filter((part) => part !== '').join('/');
    return {
      ruleId: f.ruleId,
      ruleIndex: ruleIds.indexOf(f.ruleId),
      level: f.level,
      message: { text: f.message },
      locations: [
        {
          physicalLocation: {
            artifactLocation: { uri },
            ...(f.line === undefined ? {} : { region: { startLine: f.line, startColumn: f.column ?? 1 } }),
          },
          logicalLocations: [{ fullyQualifiedName: logical, kind: 'member' }],
        },
      ],
      partialFingerprints: { 'portcullisDefinition/v1': fingerprintOf(f) },
      properties: {
        category: f.category,
        server: f.server,
        subject: f.subject,
        ...(f.digest === null ? {} : { definitionDigest: f.digest }),
        ...(f.risk === undefined ? {} : { risk: f.risk }),
        ...(f.modelScore === undefined ? {} : { modelScore: f.modelScore }),
      },
    };
  });
  return {
    $schema: SCHEMA,
    version: '2.1.0',
    runs: [
      {
        tool: { driver: { name: 'portcullis', semanticVersion: PORTCULLIS_VERSION, rules } },
        artifacts: [{ location: { uri } }],
        results,
        properties: { failOn: report.failOn, failed: report.failed },
      },
    ],
  };
}
