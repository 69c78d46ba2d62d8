import { describe, expect, it } from 'vitest';
import {
  TOOL_FINGERPRINT_PROFILE,
  fingerprintTool,
  hashMcpTool,
  toolFingerprintContent,
} from './fingerprint.ts';
import type { FingerprintableTool } from './fingerprint.ts';

const SCHEMA = { type: 'object', properties: { query: { type: 'string' } }, required: ['query'] };

describe('hashMcpTool (R-LEDGER-3)', () => {
  it('reproduces the pinned reference digest', () => {
    expect(hashMcpTool('search_web', 'Search the web and return top results.', SCHEMA, {})).toBe(
      '2308889d3c635456f52daa70ce97bdc9f4691e2854d48afe76fb67f6c4f9973a',
    );
  });
  it('treats absent annotations as the all-null object and ignores schema key order', () => {
    const reordered = { required: ['query'], properties: { query: { type: 'string' } }, type: 'object' };
    expect(hashMcpTool('search_web', 'Search the web and return top results.', reordered)).toBe(
      '2308889d3c635456f52daa70ce97bdc9f4691e2854d48afe76fb67f6c4f9973a',
    );
  });
  it('reads null name and description as empty strings', () => {
    expect(hashMcpTool(null, null, null)).toBe(hashMcpTool('', '', undefined));
  });
  it('changes with a hint', () => {
    expect(hashMcpTool('a', 'b', SCHEMA, { destructiveHint: true })).not.toBe(hashMcpTool('a', 'b', SCHEMA));
  });
});

describe('fingerprintTool (R-LEDGER-2)', () => {
  const tool: FingerprintableTool = {
    name: 'search_web',
    title: 'Search',
    description: 'Search the web and return top results.',
    inputSchema: SCHEMA,
    outputSchema: { type: 'object' },
    annotations: { readOnlyHint: true },
  };

  it('stores the profile id beside a 64-hex digest', () => {
    const fingerprint = fingerprintTool(tool);
    expect(fingerprint.profile).toBe(TOOL_FINGERPRINT_PROFILE);
    expect(fingerprint.profile).toBe('portcullis-tool/v1');
    expect(fingerprint.hash).toMatch(/^[0-9a-f]{64}$/);
  });

  it('hashes the canonical six-field object', () => {
    expect(toolFingerprintContent({ name: 'x' })).toBe(
      '{"annotations":null,"description":null,"inputSchema":null,"name":"x","outputSchema":null,"title":null}',
    );
  });

  // Every model-visible field is covered; the reference-compatible digest misses the annotation row (R-LEDGER-2).
  it.each<[string, Partial<FingerprintableTool>]>([
    ['annotation hint only', { annotations: { readOnlyHint: false } }],
    ['annotation title only', { annotations: { readOnlyHint: true, title: 'x' } }],
    ['title', { title: 'Search!' }],
    ['description', { description: 'Search the web and return top results!' }],
    ['input schema', { inputSchema: { ...SCHEMA, required: [] } }],
    ['output schema', { outputSchema: { type: 'array' } }],
    ['name', { name: 'search_web2' }],
  ])('changes when the %s changes', (_name, patch) => {
    expect(fingerprintTool({ ...tool, ...patch }).hash).not.toBe(fingerprintTool(tool).hash);
  });

  it('does not change with key order', () => {
    const reordered: FingerprintableTool = {
      annotations: { readOnlyHint: true },
      outputSchema: { type: 'object' },
      inputSchema: { required: ['query'], type: 'object', properties: { query: { type: 'string' } } },
      description: 'Search the web and return top results.',
      title: 'Search',
      name: 'search_web',
    };
    expect(fingerprintTool(reordered)).toEqual(fingerprintTool(tool));
  });

  it('differs from the reference digest, which ignores title, output schema and (live) annotations', () => {
    expect(fingerprintTool(tool).hash).not.toBe(hashMcpTool(tool.name, tool.description, tool.inputSchema));
  });
});
