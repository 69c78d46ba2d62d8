import { describe, expect, it } from 'vitest';
import { humanInTheLoopOf, toMcpTool } from '../mcp-tool.ts';
import { resolveSandbox } from '../resolver.ts';
import type { RiskLevel } from '../deps.ts';
import { policiesOf, specOf } from './fixtures.ts';

const SECRET_CODE = 'const marker = "CODE-MARKER-7f3a"; return marker;';

const rich = () =>
  specOf({
    name: 'richTool',
    title: 'Rich Tool',
    description: 'Does rich things. Returns { ok }.',
    params: [
      {
        name: 'city',
        type: 'STRING',
        required: true,
        testValue: 'TESTVALUE-MARKER',
        description: 'City name',
      },
      { name: 'count', type: 'INTEGER', required: false, testValue: '3' },
      { name: 'ratio', type: 'NUMBER', required: false },
      { name: 'flag', type: 'BOOLEAN', required: false },
      { name: 'opts', type: 'OBJECT', required: false, description: '' },
      { name: 'list', type: 'ARRAY', required: true, testValue: '[1]' },
    ],
    staticVariables: [{ apiKey: '${STATIC_MARKER_KEY}' }],
    code: SECRET_CODE,
    sandboxOverrides: { networkMode: 'allowlist', hostsAllow: ['overrides-marker.example'] },
    toolSafety: { version: '1.0', runtime: { id: 'toolsafety-marker' } },
    draft: false,
  });

describe('toMcpTool (R-SPEC-10)', () => {
  it('lowers params to a JSON Schema object in order, with required names', () => {
    const tool = toMcpTool(rich());
    expect(tool.name).toBe('richTool');
    expect(tool.title).toBe('Rich Tool');
    expect(tool.description).toBe('Does rich things. Returns { ok }.');
    expect(tool.inputSchema).toEqual({
      type: 'object',
      properties: {
        city: { type: 'string', description: 'City name' },
        count: { type: 'integer' },
        ratio: { type: 'number' },
        flag: { type: 'boolean' },
        opts: { type: 'object' },
        list: { type: 'array' },
      },
      required: ['city', 'list'],
      additionalProperties: false,
    });
    expect(Object.keys(tool.inputSchema.properties)).toEqual([
      'city',
      'count',
      'ratio',
      'flag',
      'opts',
      'list',
    ]);
  });

  it('never carries code, staticVariables, sandboxOverrides, toolSafety, testValue or draft', () => {
    const spec = rich();
    const resolved = resolveSandbox({ policies: policiesOf(), overrides: spec.sandboxOverrides });
    const variants = [
      toMcpTool(spec),
      resolved.ok ? toMcpTool(spec, { resolved: resolved.value }) : undefined,
    ];
    for (const tool of variants) {
      const text = JSON.stringify(tool);
      for (const forbidden of [
        'CODE-MARKER-7f3a',
        'STATIC_MARKER_KEY',
        'apiKey',
        'overrides-marker.example',
        'toolsafety-marker',
        'TESTVALUE-MARKER',
        '"testValue"',
        '"draft"',
        '"code"',
        '"staticVariables"',
        '"sandboxOverrides"',
        '"toolSafety"',
      ]) {
        expect(text).not.toContain(forbidden);
      }
    }
  });

  it('derives annotations from the resolved posture when given', () => {
    const spec = specOf({ name: 'w', sandboxOverrides: { fileWrite: true, destructive: true } });
    const resolved = resolveSandbox({ policies: policiesOf(), overrides: spec.sandboxOverrides });
    if (!resolved.ok) throw new Error('unexpected');
    expect(toMcpTool(spec, { resolved: resolved.value }).annotations).toEqual({
      readOnlyHint: false,
      destructiveHint: true,
      openWorldHint: false,
    });
    expect(toMcpTool(spec).annotations).toBeUndefined();
  });
});

describe('humanInTheLoop', () => {
  it.each<[RiskLevel, string]>([
    ['L0', 'DISABLED'],
    ['L3', 'REQUIRED'],
    ['L4', 'REQUIRED'],
    ['L5', 'REQUIRED'],
  ])('defaults by risk: %s → %s', (level, mode) => {
    expect(humanInTheLoopOf(specOf({ name: 'h' }), level)).toEqual({
      mode,
      promptTemplate: null,
      source: 'default',
    });
  });

  it('a declared block wins over the default', () => {
    const spec = specOf({
      name: 'h',
      humanInTheLoop: { mode: 'AUTO_APPROVE', promptTemplate: 'Run {toolName}?' },
    });
    expect(humanInTheLoopOf(spec, 'L5')).toEqual({
      mode: 'AUTO_APPROVE',
      promptTemplate: 'Run {toolName}?',
      source: 'spec',
    });
  });
});
