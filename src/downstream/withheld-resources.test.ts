import { describe, expect, it } from 'vitest';
import type { UpstreamSnapshot } from '../upstream/index.ts';
import { buildUpstreamSurface } from './prompts-resources.ts';
import { withoutUris } from './withheld-resources.ts';

const docs: UpstreamSnapshot = {
  id: 'docs',
  transport: 'stdio',
  state: 'connected',
  attempts: 0,
  tools: [],
  prompts: [],
  resources: [{ name: 'readme', uri: 'docs://readme' }],
  resourceTemplates: [{ name: 'page', uriTemplate: 'docs://{path}' }],
};

describe('withoutUris', () => {
  const surface = buildUpstreamSurface([docs]);
  it.each([
    ['a withheld URI, though a listed template matches it', 'docs://secret', undefined],
    ['a withheld template’s own text', 'docs://{path}', undefined],
    ['another URI the template matches', 'docs://other', 'docs'],
    ['a listed resource', 'docs://readme', 'docs'],
  ])('routes %s → %s', (_what, uri, upstream) => {
    const governed = withoutUris(surface, new Set(['docs://secret', 'docs://{path}']));
    expect(governed.routeResource(uri)).toBe(upstream);
  });
  it('is the surface itself when nothing is withheld', () => {
    expect(withoutUris(surface, new Set())).toBe(surface);
  });
});
