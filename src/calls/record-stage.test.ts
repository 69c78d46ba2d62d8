import { describe, expect, it } from 'vitest';
import { createAuditLog, createAuditWriter, type AuditRecord } from '../audit/index.ts';
import type { ExposedTool } from '../exposure/types.ts';
import { createMasker } from '../secrets/index.ts';
import { openStore, type Store } from '../store/index.ts';
import { createLogger, createTelemetry } from '../telemetry/index.ts';
import type { CallRecord } from './pipeline.ts';
import { createRecordStage, LAST_USED_INTERVAL_MS } from './record-stage.ts';
import { compileProfiles } from '../exposure/index.ts';

const definition = { name: 'read', inputSchema: { type: 'object' as const } };
const tool: ExposedTool = {
  alias: 'files_read',
  origin: 'upstream',
  upstream: 'files',
  composition: 'upstream:files',
  upstreamTool: 'read',
  definition,
  source: definition,
  hitl: 'REQUIRED',
  exposed: true,
  governance: {
    risk: { final: 'L3', effective: 'L2', hitlMitigated: true, poisoned: false, floorTrigger: null },
  },
};

/** A record stage over a real in-memory store, audit writer and telemetry, with a clock the test moves. */
function setUp() {
  const store: Store = openStore({ path: ':memory:' });
  const masker = createMasker([]);
  const lines: string[] = [];
  const logger = createLogger({ level: 'info', masker, write: (line) => lines.push(line) });
  const telemetry = createTelemetry({ serviceName: 'test', captureArguments: false, masker, logger });
  const clock = { at: 1_700_000_000_000 };
  const auditLog = createAuditLog(store, { clock: () => clock.at, masker });
  const audit = createAuditWriter(auditLog);
  const record = createRecordStage({
    audit,
    events: store.events,
    upstreams: store.upstreams,
    telemetry,
    withheldUpstream: () => undefined,
    now: () => clock.at,
    logger,
  });
  const records = (): AuditRecord[] =>
    auditLog.query({ order: 'asc', limit: 100 }).entries.map((e) => e.record);
  const events = (): string[] => lines.map((line) => String((JSON.parse(line) as { event: unknown }).event));
  return { store, audit, record, records, events, clock };
}

function call(over: Partial<CallRecord> = {}): CallRecord {
  return {
    tool,
    alias: tool.alias,
    args: {},
    caller: {
      principal: { id: 'alice', source: 'api-key', groups: [], scopes: [] },
      profile: compileProfiles({}).default,
      era: 'legacy',
      signal: new AbortController().signal,
    },
    startedAt: 0,
    durationMs: 1,
    outcome: 'OK',
    approval: {
      mode: 'REQUIRED',
      decision: 'ask',
      elicitation: 'accept',
      decidedAt: '2026-01-01T00:00:00.000Z',
    },
    ...over,
  };
}

const afterTurn = () => new Promise((resolve) => setImmediate(resolve));

describe('the record stage', () => {
  it('writes one audit row and one ApprovalDecided event for a call a person answered', async () => {
    const { record, records, store, audit } = setUp();
    await record(call());
    await audit.flush();
    expect(records()).toEqual([
      expect.objectContaining({
        alias: 'files_read',
        risk: expect.objectContaining({ final: 'L2', hitlMitigated: true }),
        approval: {
          mode: 'REQUIRED',
          decision: 'ask',
          elicitation: 'accept',
          decidedAt: '2026-01-01T00:00:00.000Z',
        },
      }),
    ]);
    expect(store.events.query({ type: 'ApprovalDecided' })).toEqual([
      expect.objectContaining({
        subject: 'files_read',
        payload: expect.objectContaining({
          principal: 'alice',
          outcome: 'OK',
          decision: 'ask',
          elicitation: 'accept',
        }),
      }),
    ]);
  });

  it("writes a relayed round's row, but leaves the approval event and the call's log line to the call's end", async () => {
    const { record, records, store, audit, events } = setUp();
    await record(call({ outcome: 'INPUT_REQUIRED' }));
    await audit.flush();
    expect(records().map((r) => r.outcome)).toEqual(['INPUT_REQUIRED']);
    expect(store.events.query({ type: 'ApprovalDecided' })).toEqual([]);
    await afterTurn();
    expect(events()).not.toContain('mcp.tool.done');
    await record(call());
    await audit.flush();
    expect(records().map((r) => r.outcome)).toEqual(['INPUT_REQUIRED', 'OK']);
    expect(store.events.query({ type: 'ApprovalDecided' })).toHaveLength(1);
    await afterTurn();
    expect(events().filter((e) => e === 'mcp.tool.done')).toHaveLength(1);
  });

  it('records no ApprovalDecided event when nobody was asked', async () => {
    const { record, store } = setUp();
    await record(call({ approval: { mode: 'DISABLED', decision: 'allow' } }));
    await record(call({ approval: { mode: 'REQUIRED', decision: 'deny', ruleId: 'r' }, outcome: 'ERROR' }));
    expect(store.events.query({ type: 'ApprovalDecided' })).toEqual([]);
  });

  it('marks the upstream used at most once a minute, and only for calls that succeeded', async () => {
    const { record, store, clock } = setUp();
    const start = clock.at;
    await record(call({ outcome: 'ERROR', errorCode: 'UPSTREAM_TOOL_ERROR' }));
    expect(store.upstreams.get('files')?.lastUsedAt ?? null).toBeNull();
    await record(call());
    expect(store.upstreams.get('files')?.lastUsedAt).toBe(start);
    clock.at = start + LAST_USED_INTERVAL_MS - 1;
    await record(call());
    expect(store.upstreams.get('files')?.lastUsedAt).toBe(start);
    clock.at = start + LAST_USED_INTERVAL_MS;
    await record(call());
    expect(store.upstreams.get('files')?.lastUsedAt).toBe(start + LAST_USED_INTERVAL_MS);
  });

  it('does not throw when the store fails: it logs audit.write_failed and still reports the call', async () => {
    const { record, store, events } = setUp();
    store.close();
    await expect(record(call())).resolves.toBeUndefined();
    await afterTurn();
    expect(events()).toContain('audit.write_failed');
    expect(events()).toContain('mcp.tool.done');
  });
});
