import { describe, expect, it } from 'vitest';
import { toAuditInput } from './audit-record.ts';
import type { CallRecord } from './pipeline.ts';
import type { ExposedTool } from '../exposure/types.ts';
import {
  assessServer,
  evaluateLocalToolRisk,
  evaluateToolRisk,
  type RiskLevel,
  type ToolRiskEvaluation,
} from '../risk/index.ts';
import { compileProfiles } from '../exposure/index.ts';

const definition = { name: 'x', inputSchema: { type: 'object' as const } };

/** A real evaluation of `definition`, with the levels the rows expect. */
function scored(levels: { final: RiskLevel; server: RiskLevel }): ToolRiskEvaluation {
  const server = assessServer({ transport: 'stdio', lastUsedAt: null }, null, 0);
  const risk = evaluateToolRisk({ server, tool: definition, hitl: false, scan: { clean: true } });
  return {
    ...risk,
    final: levels.final,
    effective: levels.final,
    server: { ...risk.server, level: levels.server },
    floorTrigger: null,
  };
}

const upstreamTool: ExposedTool = {
  alias: 'files_read',
  origin: 'upstream',
  upstream: 'files',
  upstreamTool: 'read',
  definition,
  source: definition,
  hitl: 'AUTO_APPROVE',
  exposed: true,
  composition: 'upstream:files',
  governance: { risk: scored({ final: 'L2', server: 'L1' }) },
};

const localTool: ExposedTool = {
  alias: 'base64',
  origin: 'local',
  localToolId: 'base64',
  definition,
  source: definition,
  hitl: 'DISABLED',
  exposed: true,
  governance: {
    risk: {
      ...evaluateLocalToolRisk({ sandboxLevel: 'L0', hitl: false, scan: { clean: true } }),
      floorTrigger: null,
    },
    category: 'transform',
    toolSafety: { network: 'none' },
  },
};

function call(tool: ExposedTool | undefined, over: Partial<CallRecord> = {}): CallRecord {
  return {
    tool,
    alias: tool?.alias ?? 'nope',
    args: { a: 1 },
    caller: {
      principal: { id: 'alice', source: 'api-key', groups: [], scopes: [] },
      profile: compileProfiles({}).default,
      sessionId: 's1',
      era: 'legacy',
      signal: new AbortController().signal,
    },
    startedAt: 0,
    durationMs: 3,
    outcome: 'OK',
    ...over,
  };
}

describe('toAuditInput', () => {
  it.each([
    [
      'an allowed upstream call',
      call(upstreamTool, { approval: { decision: 'allow', mode: 'AUTO_APPROVE' } }),
      {
        origin: 'upstream',
        upstreamId: 'files',
        upstreamTool: 'read',
        risk: { final: 'L2', server: 'L1', floorTrigger: null, hitlMitigated: false },
        approval: { mode: 'AUTO_APPROVE', decision: 'allow' },
        outcome: 'OK',
      },
    ],
    [
      'a local call refused before approval (invalid arguments)',
      call(localTool, { outcome: 'ERROR', errorCode: 'INVALID_ARGUMENTS' }),
      {
        origin: 'local',
        toolId: 'base64',
        category: 'transform',
        toolSafety: { network: 'none' },
        approval: { mode: 'DISABLED', decision: 'deny', ruleId: 'gateway:INVALID_ARGUMENTS' },
        errorCode: 'INVALID_ARGUMENTS',
      },
    ],
    [
      'a local call whose result the response scan withheld',
      call(localTool, {
        outcome: 'ERROR',
        errorCode: 'RESPONSE_WITHHELD',
        approval: { decision: 'allow', mode: 'DISABLED' },
        responseScan: {
          mode: 'enforce',
          action: 'withheld',
          findings: [{ patternId: 'HIDDEN_INSTRUCTION', field: 'content/0/text', offset: 4, length: 32 }],
          scannedChars: 60,
        },
      }),
      {
        origin: 'local',
        outcome: 'ERROR',
        errorCode: 'RESPONSE_WITHHELD',
        responseScan: {
          mode: 'enforce',
          action: 'withheld',
          findings: [{ patternId: 'HIDDEN_INSTRUCTION', field: 'content/0/text', offset: 4, length: 32 }],
          scannedChars: 60,
        },
      },
    ],
    [
      'a call to an unknown name',
      call(undefined, { outcome: 'ERROR', errorCode: 'UNKNOWN_TOOL' }),
      {
        origin: 'unresolved',
        upstreamId: null,
        risk: null,
        approval: { mode: null, decision: 'deny', ruleId: 'gateway:UNKNOWN_TOOL' },
        outcome: 'ERROR',
        errorCode: 'UNKNOWN_TOOL',
      },
    ],
  ])('%s', (_name, record, expected) => {
    expect(toAuditInput(record, 'trace-1')).toMatchObject({
      principal: 'alice',
      sessionId: 's1',
      arguments: { a: 1 },
      durationMs: 3,
      traceId: 'trace-1',
      ...expected,
    });
  });

  it('names the upstream of a withheld tool when the registry knows it', () => {
    const record = call(undefined, {
      alias: 'files_write',
      outcome: 'ERROR',
      errorCode: 'UPSTREAM_UNAVAILABLE',
    });
    const upstreamOf = (alias: string) => (alias === 'files_write' ? 'files' : undefined);
    expect(toAuditInput(record, null, upstreamOf)).toMatchObject({
      origin: 'unresolved',
      upstreamId: 'files',
      approval: { ruleId: 'gateway:UPSTREAM_UNAVAILABLE' },
      errorCode: 'UPSTREAM_UNAVAILABLE',
    });
  });
});
