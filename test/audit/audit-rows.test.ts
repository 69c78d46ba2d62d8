/**
 * Issue 5, "it must show" 3 (first half): every call of the approval scenarios, in both eras, leaves exactly one
 * audit row, and that row carries time, principal, session, alias, origin, upstream id and tool, risk (final and
 * floorTrigger), approval mode and decision, secret-masked arguments, outcome, duration, and the trace id of the
 * call's request span (tracing is on, through an in-memory exporter).
 */
import { createHash, randomUUID } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CallToolResult, Client, ElicitResult } from '@modelcontextprotocol/client';
import { InMemorySpanExporter } from '@opentelemetry/sdk-trace-base';
import type { AuditRecord } from '../../src/audit/index.ts';
import {
  connectClient,
  startGateway,
  tempDir,
  UPSTREAMS,
  type RunningGateway,
} from '../helpers/gateway-harness.ts';
import { auditRecords, resultText } from '../helpers/serve-support.ts';

const files = tempDir('portcullis-e2e-audit-');
const API_KEY = `e2e-key-${randomUUID()}`;
const PRINCIPAL = `key:${createHash('sha256').update(API_KEY).digest('hex').slice(0, 12)}`;
const spans = new InMemorySpanExporter();
let gateway: RunningGateway;

writeFileSync(path.join(files, 'readme.txt'), 'plain text\n');

beforeAll(async () => {
  gateway = await startGateway(
    {
      auth: { apiKeys: ['${E2E5_API_KEY}'] },
      upstreams: {
        files: {
          ...UPSTREAMS.filesystem(files),
          tools: { include: ['*'], overrides: { write_file: { hitl: 'REQUIRED' } } },
        },
      },
      approval: {
        elicitationTimeout: '2s',
        rules: [
          {
            id: 'no-secrets',
            match: { upstream: 'files', args: { '/path': '**/secrets/**' } },
            decision: 'deny',
            reason: 'the secrets folder is off limits',
          },
        ],
      },
    },
    { env: { E2E5_API_KEY: API_KEY }, deps: { telemetry: { spanExporter: spans } } },
  );
}, 120_000);
afterAll(async () => gateway?.close());

type Era = 'legacy' | 'modern';

/** One approval scenario: how the person answers (undefined: the client cannot elicit) and what is called. */
interface Scenario {
  answer?: (params: unknown) => ElicitResult | Promise<ElicitResult>;
  call: (era: Era, name: string) => { name: string; arguments: Record<string, unknown> };
  expected: {
    outcome: 'OK' | 'ERROR';
    errorCode?: string;
    decision: 'allow' | 'deny' | 'ask';
    mode?: string;
    ruleId?: string | RegExp;
    elicitation?: string | RegExp;
  };
}

const write = (era: Era, name: string) => ({
  name: 'files_write_file',
  // The content carries the API key: a configured secret that the audit row must show masked.
  arguments: { path: path.join(files, `${era}-${name}.txt`), content: `note ${name} with ${API_KEY}` },
});

const SCENARIOS: [string, Scenario][] = [
  [
    'accepted write',
    {
      answer: () => ({ action: 'accept', content: {} }),
      call: write,
      expected: { outcome: 'OK', decision: 'ask', mode: 'REQUIRED', elicitation: 'accept' },
    },
  ],
  [
    'declined write',
    {
      answer: () => ({ action: 'decline' }),
      call: write,
      expected: {
        outcome: 'ERROR',
        errorCode: 'TOOL_DENIED',
        decision: 'ask',
        mode: 'REQUIRED',
        elicitation: 'decline',
      },
    },
  ],
  [
    'cancelled write',
    {
      answer: () => ({ action: 'cancel' }),
      call: write,
      expected: {
        outcome: 'ERROR',
        errorCode: 'TOOL_DENIED',
        decision: 'ask',
        mode: 'REQUIRED',
        elicitation: 'cancel',
      },
    },
  ],
  [
    'write by a client that cannot elicit',
    {
      call: write,
      expected: {
        outcome: 'ERROR',
        errorCode: 'TOOL_DENIED',
        decision: 'ask',
        mode: 'REQUIRED',
        elicitation: 'unsupported',
      },
    },
  ],
  [
    'unanswered write (timeout)',
    {
      answer: async () => {
        await new Promise((resolve) => setTimeout(resolve, 3_000));
        return { action: 'accept', content: {} };
      },
      call: write,
      // Legacy: the prompt times out in-call. Modern: the late retry carries an expired sealed state.
      expected: {
        outcome: 'ERROR',
        decision: 'ask',
        mode: 'REQUIRED',
        elicitation: /^(timeout|invalid-state)$/,
      },
    },
  ],
  [
    'read denied by a rule',
    {
      answer: () => ({ action: 'accept', content: {} }),
      call: () => ({
        name: 'files_read_text_file',
        arguments: { path: path.join(files, 'secrets', 'key.txt') },
      }),
      expected: { outcome: 'ERROR', errorCode: 'TOOL_DENIED', decision: 'deny', ruleId: 'no-secrets' },
    },
  ],
  [
    'allowed read',
    {
      answer: () => ({ action: 'accept', content: {} }),
      call: () => ({ name: 'files_read_text_file', arguments: { path: path.join(files, 'readme.txt') } }),
      expected: { outcome: 'OK', decision: 'allow' },
    },
  ],
  [
    'write with invalid arguments',
    {
      answer: () => ({ action: 'accept', content: {} }),
      call: (era, name) => ({
        name: 'files_write_file',
        arguments: { path: path.join(files, `${era}-${name}.txt`) },
      }),
      expected: {
        outcome: 'ERROR',
        errorCode: 'INVALID_ARGUMENTS',
        decision: 'deny',
        ruleId: /^gateway:INVALID_ARGUMENTS$/,
      },
    },
  ],
];

const masked = (args: Record<string, unknown>) =>
  JSON.parse(JSON.stringify(args).replaceAll(API_KEY, '***')) as Record<string, unknown>;

describe.each(['legacy', 'modern'] as const)('audit rows of %s calls', (era) => {
  it.each(SCENARIOS)('%s: exactly one complete row', async (name, scenario) => {
    const asked: unknown[] = [];
    const answer = scenario.answer;
    const client: Client = await connectClient(gateway.url, {
      era,
      apiKey: API_KEY,
      ...(answer
        ? {
            onElicit: (params: unknown) => {
              asked.push(params);
              return answer(params);
            },
          }
        : {}),
    });
    const request = scenario.call(era, name.replaceAll(/\W+/g, '-'));
    const before = (await auditRecords(gateway.gateway)).length;
    const startedAt = Date.now();
    const result = await client
      .callTool(request)
      .then((r) => r as CallToolResult)
      .catch((error: Error) => error);
    const endedAt = Date.now();
    if (result instanceof Error) {
      // Only the modern late retry may surface as an error: the gateway refused the expired sealed state.
      expect(era === 'modern' && name.includes('timeout')).toBe(true);
    } else {
      expect(result.isError ?? false).toBe(scenario.expected.outcome === 'ERROR');
      expect(resultText(result)).not.toContain(API_KEY);
    }
    const sessionId = client.transport?.sessionId;
    await client.close();

    const rows = (await auditRecords(gateway.gateway)).slice(before);
    expect(rows).toHaveLength(1);
    const row = rows[0] as AuditRecord;
    const { expected } = scenario;

    expect(Date.parse(row.time)).toBeGreaterThanOrEqual(startedAt - 1_000);
    expect(Date.parse(row.time)).toBeLessThanOrEqual(endedAt + 1_000);
    expect(row.time).toBe(new Date(Date.parse(row.time)).toISOString());
    expect(row.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(row.principal).toBe(PRINCIPAL);
    if (era === 'legacy') {
      expect(sessionId).toEqual(expect.any(String));
      expect(row.sessionId).toBe(sessionId);
    } else {
      expect(row.sessionId).toBeNull();
    }
    expect(row.alias).toBe(request.name);
    expect(row).toMatchObject({
      origin: 'upstream',
      upstreamId: 'files',
      upstreamTool: request.name.replace(/^files_/, ''),
    });
    const risk = row.risk as NonNullable<AuditRecord['risk']>;
    expect(risk.final).toMatch(/^L[0-5]$/);
    expect(risk).toHaveProperty('floorTrigger');
    expect(risk.floorTrigger === null || typeof risk.floorTrigger === 'string').toBe(true);
    expect(typeof risk.hitlMitigated).toBe('boolean');
    expect(['REQUIRED', 'AUTO_APPROVE', 'DISABLED']).toContain(row.approval.mode);
    if (expected.mode !== undefined) expect(row.approval.mode).toBe(expected.mode);
    expect(row.approval.decision).toBe(expected.decision);
    if (expected.ruleId !== undefined) expect(row.approval.ruleId).toMatch(expected.ruleId);
    if (expected.elicitation !== undefined) expect(row.approval.elicitation).toMatch(expected.elicitation);
    else expect(row.approval.elicitation).toBeUndefined();
    expect(row.arguments).toEqual(masked(request.arguments));
    expect(JSON.stringify(row)).not.toContain(API_KEY);
    expect(row.outcome).toBe(expected.outcome);
    if (expected.errorCode !== undefined) expect(row.errorCode).toBe(expected.errorCode);
    if (expected.outcome === 'OK') expect(row.errorCode).toBeUndefined();
    expect(row.durationMs).toBeGreaterThanOrEqual(0);
    expect(row.durationMs).toBeLessThanOrEqual(endedAt - startedAt + 50);

    // The row's trace id is the trace of this call's request span, which carries the same approval decision.
    expect(row.traceId).toMatch(/^[0-9a-f]{32}$/);
    await new Promise((resolve) => setImmediate(resolve)); // request spans end just after the answer
    const requestSpans = spans
      .getFinishedSpans()
      .filter((s) => s.spanContext().traceId === row.traceId && s.name === `tools/call ${request.name}`);
    expect(requestSpans.length).toBeGreaterThan(0);
    const events = requestSpans.flatMap((s) => s.events).filter((e) => e.name === 'mcp.approval');
    if (typeof expected.ruleId === 'object') {
      // Refused at the door before the approval stage ran: the row names the gateway; the span has no decision.
      expect(events).toHaveLength(0);
      expect(requestSpans.map((s) => s.attributes['error.type'])).toContain(expected.errorCode);
    } else {
      expect(events).toHaveLength(1);
      expect(events[0]?.attributes?.['mcp.approval.decision']).toBe(expected.decision);
    }
    expect(requestSpans[0]?.attributes['mcp.risk.level']).toBe(risk.final);
  });
});

describe.each(['legacy', 'modern'] as const)('audit rows of %s calls to names that are not tools', (era) => {
  it('a call to an unknown tool leaves one unresolved row, refused by the gateway', async () => {
    const client: Client = await connectClient(gateway.url, { era, apiKey: API_KEY });
    const before = (await auditRecords(gateway.gateway)).length;
    const name = `files_probe_${era}`;
    const outcome = await client
      .callTool({ name, arguments: { path: `/etc/${API_KEY}` } })
      .then((r) => r as CallToolResult)
      .catch((error: Error) => error);
    await client.close();
    // An unknown tool is answered with a protocol error or an isError result, depending on the era's SDK path.
    if (outcome instanceof Error) expect(outcome.message).toMatch(/Unknown tool/);
    else expect(outcome.isError).toBe(true);

    const rows = (await auditRecords(gateway.gateway)).slice(before);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      principal: PRINCIPAL,
      alias: name,
      origin: 'unresolved',
      upstreamId: null,
      risk: null,
      approval: { mode: null, decision: 'deny', ruleId: 'gateway:UNKNOWN_TOOL' },
      arguments: { path: '/etc/***' },
      outcome: 'ERROR',
      errorCode: 'UNKNOWN_TOOL',
    });
    expect(rows[0]?.traceId).toMatch(/^[0-9a-f]{32}$/);
  });
});
