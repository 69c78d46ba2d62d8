import { describe, expect, it } from 'vitest';
import {
  SURFACE_FINGERPRINT_PROFILES,
  surfaceFingerprintContent,
  TOOL_FINGERPRINT_PROFILE,
  fingerprintTool,
  hashMcpTool,
  toolFingerprintContent,
} from './fingerprint.ts';
import type { FingerprintableSurface, FingerprintableTool } from './fingerprint.ts';

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

describe('surfaceFingerprintContent (R-LEDGER-8)', () => {
  it.each<[FingerprintableSurface, string]>([
    [
      { kind: 'prompt', item: { name: 'p', arguments: [{ name: 'q', required: true }] } },
      '{"arguments":[{"description":null,"name":"q","required":true,"title":null}],"description":null,"name":"p","title":null}',
    ],
    [
      { kind: 'resource', item: { name: 'r', uri: 'docs://r' } },
      '{"annotations":null,"description":null,"mimeType":null,"name":"r","title":null,"uri":"docs://r"}',
    ],
    [
      { kind: 'resource-template', item: { name: 't', uriTemplate: 'docs://t/{id}' } },
      '{"annotations":null,"description":null,"mimeType":null,"name":"t","title":null,"uriTemplate":"docs://t/{id}"}',
    ],
    [{ kind: 'server-instructions', instructions: 'Be brief.' }, '{"instructions":"Be brief."}'],
  ])('hashes every field of a %j, absent ones as null', (surface, content) => {
    expect(surfaceFingerprintContent(surface)).toBe(content);
  });

  it('gives each kind its own profile id, none a tool’s', () => {
    expect(Object.values(SURFACE_FINGERPRINT_PROFILES)).toEqual([
      'portcullis-prompt/v1',
      'portcullis-resource/v1',
      'portcullis-resource-template/v1',
      'portcullis-instructions/v1',
    ]);
  });

  const prompt = {
    name: 'plan',
    title: 'Plan',
    description: 'Plans a trip.',
    arguments: [{ name: 'to', title: 'To', description: 'Where to', required: true }],
  };
  const resource = {
    name: 'readme',
    title: 'Readme',
    description: 'The readme.',
    uri: 'docs://readme',
    mimeType: 'text/plain',
    annotations: { audience: ['user'], priority: 0.5 },
  };
  const template = { ...resource, uri: undefined, uriTemplate: 'docs://pages/{id}' };
  const content = (kind: 'prompt' | 'resource' | 'resource-template', item: object) =>
    surfaceFingerprintContent({ kind, item } as FingerprintableSurface);
  it.each<[string, 'prompt' | 'resource' | 'resource-template', object, object]>([
    ['prompt name', 'prompt', prompt, { name: 'plan2' }],
    ['prompt title', 'prompt', prompt, { title: 'Plan!' }],
    ['prompt description', 'prompt', prompt, { description: 'Plans a trip, then mails it.' }],
    [
      'prompt argument description',
      'prompt',
      prompt,
      { arguments: [{ ...prompt.arguments[0], description: 'x' }] },
    ],
    [
      'prompt argument required',
      'prompt',
      prompt,
      { arguments: [{ ...prompt.arguments[0], required: false }] },
    ],
    ['prompt argument added', 'prompt', prompt, { arguments: [...prompt.arguments, { name: 'from' }] }],
    ['resource uri', 'resource', resource, { uri: 'docs://other' }],
    ['resource name', 'resource', resource, { name: 'other' }],
    ['resource title', 'resource', resource, { title: 'Other' }],
    ['resource description', 'resource', resource, { description: 'Other.' }],
    ['resource MIME type', 'resource', resource, { mimeType: 'text/html' }],
    [
      'resource annotation',
      'resource',
      resource,
      { annotations: { audience: ['assistant'], priority: 0.5 } },
    ],
    ['template URI template', 'resource-template', template, { uriTemplate: 'docs://p/{id}' }],
    ['template description', 'resource-template', template, { description: 'Other.' }],
  ])('changes when the %s changes', (_name, kind, item, patch) => {
    expect(content(kind, { ...item, ...patch })).not.toBe(content(kind, item));
  });

  it('does not change with key order', () => {
    const reordered = {
      annotations: { priority: 0.5, audience: ['user'] },
      mimeType: 'text/plain',
      uri: 'docs://readme',
      description: 'The readme.',
      title: 'Readme',
      name: 'readme',
    };
    expect(content('resource', reordered)).toBe(content('resource', resource));
  });
});
