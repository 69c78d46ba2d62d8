/**
 * The report `portcullis scan` prints: servers and tools with their risk, and one flat list of findings (each
 * with a rule id, a level, the server/subject/field it concerns and, for files, a line and column) that the
 * text, JSON and SARIF forms share. `--fail-on` is decided here (docs/scan.md).
 */
import type { ExposedTool } from '../exposure/index.ts';
import { isRiskAtLeast, isRiskLevel, type RiskLevel, type ServerAssessment } from '../risk/index.ts';
import type { UpstreamSnapshot } from '../upstream/index.ts';
import type { ShadowingHit, SurfaceHit } from '../app/index.ts';
import type { TextPosition } from './scan-json.ts';

/** A SARIF result level. */
export type FindingLevel = 'error' | 'warning' | 'note';
/** What a finding is about. */
export type FindingSubject =
  'server' | 'tool' | 'prompt' | 'resource' | 'resource-template' | 'server-instructions';

/** One finding of a scan. */
export interface ScanFinding {
  /** A poisoning pattern id, `risk-floor/<trigger>`, `risk-level`, a shadowing rule, or a server/tool state. */
  ruleId: string;
  category: 'poisoning' | 'risk' | 'shadowing' | 'server' | 'exposure';
  level: FindingLevel;
  server: string;
  subject: FindingSubject;
  /** The tool, prompt or resource name ('' for the server itself). */
  name: string;
  fieldPath: string;
  message: string;
  /** sha256 of the definition's canonical JSON (the ledger's fingerprint of a tool, prompt, resource or instructions). */
  digest: string | null;
  /** The poisoning model's probability that a prompt, resource or template is poisoned (its verdict). */
  modelScore?: number;
  /** The risk level a risk finding reports. */
  risk?: RiskLevel;
  line?: number;
  column?: number;
}

/** A server line of the report. */
export interface ServerLine {
  id: string;
  name: string;
  state: string;
  transport: string;
  level: string | null;
  totalScore: number | null;
  floorTrigger: string | null;
  catalog: string | null;
  lastError: string | null;
  /** The server's instructions (model-visible; scanned like descriptions), when it sent any. */
  instructions: string | null;
}

/** A tool line of the report. */
export interface ToolLine {
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

/** What `scan` read. */
export interface ScanSource {
  kind: 'config' | 'client-config' | 'tools';
  file: string;
  /** The client config family or tools file form. */
  shape?: string;
}

/** The report `scan` prints, also its --format json form. */
export interface ScanReport {
  source: ScanSource;
  failOn: string;
  failed: boolean;
  servers: ServerLine[];
  tools: ToolLine[];
  findings: ScanFinding[];
}

/** What the report is built from. */
export interface ReportInputs {
  source: ScanSource;
  snapshots: readonly UpstreamSnapshot[];
  assessments: ReadonlyMap<string, ServerAssessment>;
  tools: readonly ExposedTool[];
  surfaces: readonly SurfaceHit[];
  shadowing: readonly ShadowingHit[];
  /** The name of an upstream id in the scanned file (the id itself for portcullis.yaml). */
  nameOf(id: string): string;
  /** Where a server or one of its tools sits in the scanned file. */
  positionOf(id: string, tool?: string): TextPosition | undefined;
  mask(text: string): string;
  /**
   * False for tools files: they say nothing about the server, so servers get no level and each tool reports
   * its own (publish) risk, not the composition with a made-up server.
   */
  serverRisk: boolean;
}

/** The values `--fail-on` takes. */
export const FAIL_ON_VALUES = [
  'L0',
  'L1',
  'L2',
  'L3',
  'L4',
  'L5',
  'error',
  'warning',
  'note',
  'poisoned',
  'any',
] as const;
/** A `--fail-on` value. */
export type FailOn = (typeof FAIL_ON_VALUES)[number];
/** True when `text` is a `--fail-on` value. */
export const isFailOn = (text: string): text is FailOn =>
  (FAIL_ON_VALUES as readonly string[]).includes(text);

const LEVEL_ORDER: Record<FindingLevel, number> = { note: 0, warning: 1, error: 2 };
const riskFindingLevel = (level: RiskLevel): FindingLevel =>
  level === 'L5' ? 'error' : isRiskAtLeast(level, 'L3') ? 'warning' : 'note';
/** Risk below this gets no finding of its own (the tool line still shows it), unless a floor raised it. */
const RISK_FINDING_FROM: RiskLevel = 'L3';

/** Decides `--fail-on` over a report's lines and findings. */
export function failsOn(failOn: FailOn, report: Pick<ScanReport, 'servers' | 'tools' | 'findings'>): boolean {
  if (failOn === 'poisoned')
    return report.findings.some((f) => f.category === 'poisoning' || f.category === 'shadowing');
  if (failOn === 'any') return report.findings.length > 0;
  if (!isRiskLevel(failOn)) return report.findings.some((f) => LEVEL_ORDER[f.level] >= LEVEL_ORDER[failOn]);
  const high = (level: string | null) => level !== null && isRiskLevel(level) && isRiskAtLeast(level, failOn);
  return (
    report.servers.some((s) => high(s.level)) ||
    report.tools.some((t) => high(t.final)) ||
    report.findings.some((f) => f.category !== 'risk' && f.level === 'error')
  );
}

function serverLines(inputs: ReportInputs): ServerLine[] {
  return inputs.snapshots.map((s) => {
    const assessment = inputs.assessments.get(s.id);
    const connected = s.state === 'connected' && inputs.serverRisk;
    return {
      id: s.id,
      name: inputs.nameOf(s.id),
      state: s.state,
      transport: s.transport,
      level: connected ? (assessment?.risk.level ?? null) : null,
      totalScore: connected ? (assessment?.risk.totalScore ?? null) : null,
      floorTrigger: connected ? (assessment?.risk.floorTrigger ?? null) : null,
      catalog: assessment?.catalogId ?? null,
      lastError: s.lastError === undefined ? null : inputs.mask(s.lastError),
      instructions: s.instructions === undefined ? null : inputs.mask(s.instructions),
    };
  });
}

/** The risk a report shows for a tool: composed with its server's, or (serverRisk false) the tool's own. */
function toolRiskOf(
  t: ExposedTool,
  serverRisk: boolean,
): { final: RiskLevel; effective: RiskLevel; floorTrigger: string | null } | undefined {
  const risk = t.governance?.risk;
  if (risk === undefined || serverRisk || risk.publish === undefined) return risk;
  return {
    final: risk.publish.level,
    effective: risk.publish.level,
    floorTrigger: risk.publish.floorTrigger,
  };
}

function toolLine(t: ExposedTool, serverRisk: boolean): ToolLine {
  const risk = toolRiskOf(t, serverRisk);
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
    poisoning: (t.governance?.poisoning?.matches ?? []).map((m) => ({
      patternId: m.patternId,
      fieldPath: m.fieldPath,
      matchedText: m.matchedText,
    })),
  };
}

const excerpt = (text: string) => JSON.stringify(text.length > 80 ? `${text.slice(0, 80)}…` : text);

function serverFindings(
  inputs: ReportInputs,
  servers: readonly ServerLine[],
): Omit<ScanFinding, 'line' | 'column'>[] {
  const findings: Omit<ScanFinding, 'line' | 'column'>[] = [];
  const base = (s: ServerLine) => ({
    server: s.name,
    subject: 'server' as const,
    name: '',
    fieldPath: '',
    digest: null,
  });
  for (const s of servers) {
    if (s.state === 'disabled') {
      findings.push({
        ...base(s),
        ruleId: 'server-disabled',
        category: 'server',
        level: 'note',
        message: `${s.name} is disabled and was not scanned`,
      });
    } else if (s.state !== 'connected') {
      findings.push({
        ...base(s),
        ruleId: 'server-unreachable',
        category: 'server',
        level: 'error',
        message: `${s.name} could not be scanned: ${s.lastError ?? s.state}`,
      });
    }
    if (
      s.level !== null &&
      isRiskLevel(s.level) &&
      (s.floorTrigger !== null || isRiskAtLeast(s.level, RISK_FINDING_FROM))
    )
      findings.push({
        ...base(s),
        ruleId: s.floorTrigger ? `risk-floor/${s.floorTrigger}` : 'risk-level',
        category: 'risk',
        level: riskFindingLevel(s.level),
        risk: s.level,
        message: `server ${s.name} is at risk ${s.level}${s.floorTrigger ? ` (floor: ${s.floorTrigger})` : ''}, score ${s.totalScore ?? '-'}`,
      });
  }
  for (const snapshot of inputs.snapshots)
    for (const rejected of snapshot.rejectedTools ?? [])
      findings.push({
        server: inputs.nameOf(snapshot.id),
        subject: 'tool',
        name: rejected.name,
        fieldPath: '',
        digest: null,
        ruleId: 'tool-rejected',
        category: 'exposure',
        level: 'warning',
        message: `tool ${rejected.name} was not governed: ${rejected.reason}`,
      });
  return findings;
}

function toolFindings(inputs: ReportInputs): Omit<ScanFinding, 'line' | 'column'>[] {
  const findings: Omit<ScanFinding, 'line' | 'column'>[] = [];
  for (const t of inputs.tools) {
    if (t.origin !== 'upstream') continue;
    const server = inputs.nameOf(t.upstream);
    const base = {
      server,
      subject: 'tool' as const,
      name: t.upstreamTool,
      digest: t.governance?.fingerprint?.hash ?? null,
    };
    for (const m of t.governance?.poisoning?.matches ?? [])
      findings.push({
        ...base,
        ruleId: m.patternId,
        category: 'poisoning',
        level: 'error',
        fieldPath: m.fieldPath,
        message: `${m.patternId} in ${server}/${t.upstreamTool} at ${m.fieldPath}: ${excerpt(m.matchedText)}${m.detail ? ` (${m.detail})` : ''}`,
      });
    const risk = toolRiskOf(t, inputs.serverRisk);
    if (risk && (risk.floorTrigger !== null || isRiskAtLeast(risk.final, RISK_FINDING_FROM)))
      findings.push({
        ...base,
        ruleId: risk.floorTrigger ? `risk-floor/${risk.floorTrigger}` : 'risk-level',
        category: 'risk',
        level: riskFindingLevel(risk.final),
        risk: risk.final,
        fieldPath: '',
        message: `tool ${server}/${t.upstreamTool} is at risk ${risk.final}${risk.floorTrigger ? ` (floor: ${risk.floorTrigger})` : ''}`,
      });
    const status = t.governance?.fingerprint?.status;
    if (status !== undefined && status !== 'ACTIVE')
      findings.push({
        ...base,
        ruleId: `fingerprint-${status.toLowerCase()}`,
        category: 'exposure',
        level: 'error',
        fieldPath: '',
        message: `tool ${server}/${t.upstreamTool}: fingerprint ${status}`,
      });
    if (!t.exposed && t.withheldReason !== 'poisoning-blocked' && t.withheldReason !== 'upstream-down')
      findings.push({
        ...base,
        ruleId: `withheld/${t.withheldReason ?? 'unknown'}`,
        category: 'exposure',
        level: 'warning',
        fieldPath: '',
        message: `tool ${server}/${t.upstreamTool} would be withheld: ${t.withheldReason}${t.withheldDetail ? ` (${t.withheldDetail})` : ''}`,
      });
  }
  return findings;
}

/** A finding on a prompt, resource, template or instructions, with the model's verdict where it gave one. */
const surfaceFinding =
  (inputs: ReportInputs) =>
  (h: SurfaceHit): Omit<ScanFinding, 'line' | 'column'> => {
    const where = `${h.kind} ${inputs.nameOf(h.upstream)}/${h.name || '(instructions)'}`;
    const verdict = h.score === undefined ? '' : `; model p=${h.score.toFixed(3)}`;
    const withheld = h.withheld ? '; withheld' : '';
    return {
      ruleId: h.ruleId,
      category: h.category,
      level: 'error',
      server: inputs.nameOf(h.upstream),
      subject: h.kind,
      name: h.name,
      fieldPath: h.fieldPath,
      digest: h.digest,
      ...(h.score === undefined ? {} : { modelScore: h.score }),
      message:
        h.category === 'exposure'
          ? `${where}: fingerprint ${h.ruleId.slice('fingerprint-'.length).toUpperCase()}${withheld}`
          : `${h.ruleId} in ${where} at ${h.fieldPath}: ${excerpt(h.matchedText)}${h.detail ? ` (${h.detail})` : ''}${verdict}${withheld}`,
    };
  };

/** Builds the report; `failOn` is decided over it. */
export function buildReport(inputs: ReportInputs, failOn: FailOn): ScanReport {
  const servers = serverLines(inputs);
  const tools = inputs.tools.map((t) => toolLine(t, inputs.serverRisk));
  const unplaced = [
    ...serverFindings(inputs, servers),
    ...toolFindings(inputs),
    ...inputs.surfaces.map(surfaceFinding(inputs)),
    ...inputs.shadowing.map((h) => ({
      ruleId: h.rule,
      category: 'shadowing' as const,
      level: h.rule === 'R3_SELF_SCOPE_VIOLATION' ? ('warning' as const) : ('error' as const),
      server: inputs.nameOf(h.upstream),
      subject: 'tool' as const,
      name: h.tool,
      fieldPath: h.rule === 'R1_ALIAS_COLLISION' ? 'name' : 'description',
      digest: null,
      message: `${h.rule}: ${h.detail}`,
    })),
  ];
  const idOf = new Map(inputs.snapshots.map((s) => [inputs.nameOf(s.id), s.id]));
  const findings = unplaced.map((f): ScanFinding => {
    const id = idOf.get(f.server) ?? f.server;
    const at = inputs.positionOf(id, f.subject === 'tool' ? f.name : undefined) ?? inputs.positionOf(id);
    return at === undefined ? f : { ...f, line: at.line, column: at.column };
  });
  const report = { source: inputs.source, failOn, failed: false, servers, tools, findings };
  return { ...report, failed: failsOn(failOn, report) };
}
