import { describe, expect, it } from 'vitest';
import type { ApprovalRecord } from '../audit/index.ts';
import { PortcullisError } from '../errors/index.ts';
import { createMasker } from '../secrets/index.ts';
import {
  approvalAttributes,
  callOutcomeOf,
  captureText,
  errorTypeOf,
  executionTargetOf,
  maskAttributes,
  MAX_CAPTURE_CHARS,
  poisoningSummary,
  resultOutcomeOf,
  riskAttributes,
  riskLevelOf,
  toolLogEventOf,
  UNSCORED,
} from './describe.ts';
import type { ToolFacts } from './facts.ts';
import { traceContextFromMeta } from './trace-context.ts';

const upstreamTool: ToolFacts = {
  alias: 'every_echo',
  origin: 'upstream',
  upstream: 'every',
  upstreamTool: 'echo',
  composition: 'upstream:every',
  hitl: 'AUTO_APPROVE',
  governance: {
    risk: {
      final: 'L3',
      effective: 'L2',
      server: { level: 'L2', floorTrigger: null },
      publish: { level: 'L3', floorTrigger: null },
      floorTrigger: null,
      hitlMitigated: true,
      poisoned: false,
    },
    poisoning: { clean: true, matches: [] },
    fingerprint: { hash: 'abc', profile: 'portcullis/v1', status: 'ACTIVE' },
  },
};

describe('callOutcomeOf and toolLogEventOf', () => {
  it.each([
    ['OK', undefined, 'ok', 'mcp.tool.done'],
    ['ERROR', 'TOOL_DENIED', 'denied', 'mcp.tool.done'],
    ['ERROR', 'RATE_LIMITED', 'denied', 'mcp.tool.done'],
    ['ERROR', 'INVALID_ARGUMENTS', 'error', 'mcp.tool.done'],
    ['ERROR', 'UNKNOWN_TOOL', 'error', 'mcp.tool.done'],
    ['ERROR', 'UPSTREAM_TOOL_ERROR', 'error', 'mcp.tool.done'],
    ['ERROR', 'APPROVAL_STATE_INVALID', 'error', 'mcp.tool.done'],
    ['ERROR', 'INTERNAL', 'error', 'mcp.tool.crash'],
    ['ERROR', 'SANDBOX_ERROR', 'error', 'mcp.tool.crash'],
    ['ERROR', 'SANDBOX_LIMIT', 'error', 'mcp.tool.crash'],
    ['ERROR', 'UPSTREAM_UNAVAILABLE', 'error', 'mcp.tool.crash'],
    ['ERROR', 'UPSTREAM_TIMEOUT', 'error', 'mcp.tool.crash'],
    ['ERROR', undefined, 'error', 'mcp.tool.crash'],
  ] as const)('%s %s → %s, %s', (outcome, errorCode, metric, event) => {
    const facts = { outcome, errorCode };
    expect(callOutcomeOf(facts)).toBe(metric);
    expect(toolLogEventOf(facts)).toBe(event);
  });
});

describe('riskAttributes', () => {
  it('carries origin, composition, upstream, every risk level and the flags', () => {
    expect(riskAttributes(upstreamTool)).toEqual({
      'mcp.origin': 'upstream',
      'mcp.composition.alias': 'every_echo',
      'mcp.composition.implicit': true,
      'mcp.composition.hitl': 'AUTO_APPROVE',
      'mcp.cid': 'upstream:every',
      'mcp.upstream.id': 'every',
      'mcp.upstream.tool': 'echo',
      'mcp.risk.level': 'L2',
      'mcp.risk.final': 'L3',
      'mcp.risk.server_level': 'L2',
      'mcp.risk.publish_level': 'L3',
      'mcp.risk.hitl_mitigated': true,
      'mcp.risk.poisoned': false,
      'mcp.fingerprint.status': 'ACTIVE',
    });
  });

  it.each([
    ['effective wins', { final: 'L4', effective: 'L3' }, 'L3'],
    ['final when no effective', { final: 'L4' }, 'L4'],
    ['a non-level is ignored', { effective: 'high', final: 'L1' }, 'L1'],
    ['nothing scored', {}, UNSCORED],
  ])('mcp.risk.level: %s', (_name, risk, level) => {
    const tool: ToolFacts = { alias: 'a', origin: 'local', governance: { risk } };
    expect(riskLevelOf(tool)).toBe(level);
    expect(riskAttributes(tool)['mcp.risk.level']).toBe(level);
  });

  it('names the floor trigger and a poisoning hit', () => {
    const attrs = riskAttributes({
      alias: 'gh_delete_repo',
      origin: 'upstream',
      upstream: 'gh',
      composition: 'dev-tools',
      governance: {
        risk: { final: 'L5', effective: 'L5', floorTrigger: 'irreversible_verb' },
        poisoning: { clean: false, matches: [{ patternId: 'HIDDEN_INSTRUCTION', fieldPath: 'description' }] },
      },
    });
    expect(attrs).toMatchObject({
      'mcp.risk.floor_trigger': 'irreversible_verb',
      'mcp.risk.poisoned': true,
      'mcp.cid': 'dev-tools',
      'mcp.composition.implicit': false,
    });
  });

  it('an unknown tool is unscored', () => {
    expect(riskAttributes(undefined)).toEqual({ 'mcp.risk.level': UNSCORED });
  });
});

describe('approvalAttributes', () => {
  it.each<[ApprovalRecord | undefined, Record<string, string> | undefined]>([
    [undefined, undefined],
    [
      { mode: null, decision: 'deny', ruleId: 'gateway:UNKNOWN_TOOL' },
      { 'mcp.approval.decision': 'deny', 'mcp.approval.rule_id': 'gateway:UNKNOWN_TOOL' },
    ],
    [
      { decision: 'allow', mode: 'DISABLED' },
      { 'mcp.approval.decision': 'allow', 'mcp.approval.mode': 'DISABLED' },
    ],
    [
      { decision: 'deny', mode: 'AUTO_APPROVE', ruleId: 'no-prod-writes' },
      {
        'mcp.approval.decision': 'deny',
        'mcp.approval.mode': 'AUTO_APPROVE',
        'mcp.approval.rule_id': 'no-prod-writes',
      },
    ],
    [
      { decision: 'ask', mode: 'REQUIRED', elicitation: 'decline', decidedAt: '2026-01-01T00:00:00Z' },
      {
        'mcp.approval.decision': 'ask',
        'mcp.approval.mode': 'REQUIRED',
        'mcp.approval.elicitation': 'decline',
      },
    ],
  ])('%j → %j', (record, attrs) => {
    expect(approvalAttributes(record)).toEqual(attrs);
  });
});

describe('errorTypeOf', () => {
  it.each([
    [
      'a Portcullis error',
      new PortcullisError('UPSTREAM_TIMEOUT', 'slow'),
      { errorType: 'UPSTREAM_TIMEOUT' },
    ],
    [
      'a protocol error carrying a stable code',
      Object.assign(new Error('x'), { code: -32602, data: { code: 'UNKNOWN_TOOL' } }),
      { errorType: 'UNKNOWN_TOOL', rpcCode: '-32602' },
    ],
    ['a bare JSON-RPC error', { code: -32603 }, { errorType: '-32603', rpcCode: '-32603' }],
    ['anything else', new TypeError('boom'), { errorType: 'INTERNAL' }],
    ['a string', 'boom', { errorType: 'INTERNAL' }],
  ])('%s', (_name, error, expected) => {
    expect(errorTypeOf(error)).toEqual(expected);
  });
});

describe('resultOutcomeOf', () => {
  it.each([
    ['ok result', { content: [] }, { outcome: 'ok' }],
    [
      'tool error without code',
      { isError: true, content: [] },
      { outcome: 'error', errorType: 'tool_error' },
    ],
    [
      'denial',
      { isError: true, content: [], _meta: { 'dev.portcullis/error': { code: 'TOOL_DENIED' } } },
      { outcome: 'denied', errorType: 'TOOL_DENIED' },
    ],
    [
      'gateway error',
      { isError: true, content: [], _meta: { 'dev.portcullis/error': { code: 'SANDBOX_LIMIT' } } },
      { outcome: 'error', errorType: 'SANDBOX_LIMIT' },
    ],
    ['parked call', { resultType: 'input_required', inputRequests: {} }, { outcome: 'input_required' }],
    ['not an object', undefined, { outcome: 'ok' }],
  ])('%s', (_name, result, expected) => {
    expect(resultOutcomeOf(result)).toEqual(expected);
  });
});

describe('capture and masking', () => {
  const masker = createMasker(['s3cr3t-token']);

  it('masks secrets in values and keys before serializing', () => {
    const text = captureText({ query: 'use s3cr3t-token now', 's3cr3t-token': 1 }, masker);
    expect(text).not.toContain('s3cr3t-token');
    expect(JSON.parse(text)).toEqual({ query: 'use *** now', '***': 1 });
  });

  it('cuts long values after masking, leaving no secret fragment', () => {
    // The cut falls four characters into where the secret stands: cutting first would keep "s3cr".
    const filler = 'x'.repeat(MAX_CAPTURE_CHARS - '{"v":"'.length - 4);
    const text = captureText({ v: `${filler}s3cr3t-token and more text` }, masker);
    expect(text).not.toContain('s3c');
    expect(text).toContain('***');
    expect(text.endsWith('…[cut]')).toBe(true);
  });

  it('reports unserializable values instead of throwing', () => {
    const loop: Record<string, unknown> = {};
    loop.self = loop;
    expect(captureText(loop, createMasker())).toBe('[not serializable]');
  });

  it('masks string attributes and string arrays, leaves other values', () => {
    expect(maskAttributes({ a: 'x s3cr3t-token', b: ['s3cr3t-token', 'ok'], c: 3, d: true }, masker)).toEqual(
      { a: 'x ***', b: ['***', 'ok'], c: 3, d: true },
    );
  });
});

describe('poisoningSummary', () => {
  it('deduplicates and sorts pattern ids and fields, skipping junk', () => {
    expect(
      poisoningSummary([
        { patternId: 'ROLE_HIJACK', fieldPath: 'description' },
        { patternId: 'HIDDEN_INSTRUCTION', fieldPath: 'description' },
        { patternId: 'ROLE_HIJACK', fieldPath: 'inputSchema.properties.q.description' },
        null,
        'junk',
      ]),
    ).toEqual({
      patterns: ['HIDDEN_INSTRUCTION', 'ROLE_HIJACK'],
      fields: ['description', 'inputSchema.properties.q.description'],
    });
  });
});

describe('executionTargetOf', () => {
  it.each([
    [upstreamTool, 'stdio', { origin: 'upstream', upstream: 'every', tool: 'echo', transport: 'stdio' }],
    [upstreamTool, undefined, { origin: 'upstream', upstream: 'every', tool: 'echo' }],
    [
      { alias: 'hash_text', origin: 'local', localToolId: 'hash-text' },
      undefined,
      { origin: 'local', toolId: 'hash-text' },
    ],
  ] as const)('%j', (tool, transport, target) => {
    expect(executionTargetOf(tool, transport)).toEqual(target);
  });
});

describe('traceContextFromMeta', () => {
  const parent = '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01';
  it.each([
    ['both', { traceparent: parent, tracestate: 'k=v' }, { traceparent: parent, tracestate: 'k=v' }],
    ['parent only', { traceparent: parent, progressToken: 1 }, { traceparent: parent }],
    ['state without parent', { tracestate: 'k=v' }, {}],
    ['non-string parent', { traceparent: 42 }, {}],
    ['oversize parent', { traceparent: 'a'.repeat(513) }, {}],
    ['oversize state dropped', { traceparent: parent, tracestate: 'k'.repeat(513) }, { traceparent: parent }],
    ['no meta', undefined, {}],
    ['not an object', 'x', {}],
  ])('%s', (_name, meta, expected) => {
    expect(traceContextFromMeta(meta)).toEqual(expected);
  });
});
