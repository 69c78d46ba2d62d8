import type { Prompt } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import type { PromptOverride } from '../config/index.ts';
import type { UpstreamSnapshot } from '../upstream/index.ts';
import { buildUpstreamSurface, routeCompletion, type CompletionRef } from './prompts-resources.ts';

const snapshot = (id: string, prompts: Prompt[], state: UpstreamSnapshot['state'] = 'connected') =>
  ({
    id,
    transport: 'stdio',
    state,
    tools: [],
    prompts,
    resources: [],
    resourceTemplates: [],
    attempts: 0,
  }) as UpstreamSnapshot;

const prompt = (name: string, description = `the ${name} prompt`): Prompt => ({ name, description });

describe('buildUpstreamSurface prompts', () => {
  it.each<{
    name: string;
    snapshots: UpstreamSnapshot[];
    overrides: Record<string, Record<string, PromptOverride>>;
    published: [string, string, string, string | undefined][];
  }>([
    {
      name: 'namespaces prompt names by upstream',
      snapshots: [snapshot('gh', [prompt('review')])],
      overrides: {},
      published: [['gh_review', 'gh', 'review', 'the review prompt']],
    },
    {
      name: 'applies an alias and a description override',
      snapshots: [snapshot('gh', [prompt('review'), prompt('triage')])],
      overrides: { gh: { review: { alias: 'review', description: 'Review a pull request' } } },
      published: [
        ['review', 'gh', 'review', 'Review a pull request'],
        ['gh_triage', 'gh', 'triage', 'the triage prompt'],
      ],
    },
    {
      name: 'keeps the first upstream in config order when two prompts meet under one name',
      snapshots: [snapshot('a', [prompt('x')]), snapshot('b', [prompt('y')])],
      overrides: { b: { y: { alias: 'a_x' } } },
      published: [['a_x', 'a', 'x', 'the x prompt']],
    },
    {
      name: 'ignores an override of a prompt the upstream does not list and a down upstream',
      snapshots: [snapshot('a', [prompt('x')]), snapshot('b', [prompt('y')], 'down')],
      overrides: { a: { toString: { alias: 'weird' }, other: { alias: 'other' } } },
      published: [['a_x', 'a', 'x', 'the x prompt']],
    },
  ])('$name', ({ snapshots, overrides, published }) => {
    const surface = buildUpstreamSurface(snapshots, (id) => overrides[id]);
    expect(
      surface.prompts.map((p) => [p.name, p.upstream, p.upstreamName, p.definition.description]),
    ).toEqual(published);
    for (const [name, upstream, upstreamName] of published) {
      expect(surface.findPrompt(name)).toMatchObject({ upstream, upstreamName, definition: { name } });
    }
  });
});

describe('routeCompletion', () => {
  const withResources = {
    ...snapshot('docs', [prompt('summarize')]),
    resources: [{ uri: 'docs://readme', name: 'readme' }],
    resourceTemplates: [{ name: 'page', uriTemplate: 'docs://pages/{id}' }],
  } as UpstreamSnapshot;
  const surface = buildUpstreamSurface([withResources, snapshot('gh', [prompt('review')])], (id) =>
    id === 'gh' ? { review: { alias: 'review' } } : undefined,
  );
  it.each<[string, CompletionRef, ReturnType<typeof routeCompletion>]>([
    [
      'a namespaced prompt, by its upstream name',
      { type: 'ref/prompt', name: 'docs_summarize' },
      { upstream: 'docs', ref: { type: 'ref/prompt', name: 'summarize' } },
    ],
    [
      'an aliased prompt',
      { type: 'ref/prompt', name: 'review' },
      { upstream: 'gh', ref: { type: 'ref/prompt', name: 'review' } },
    ],
    [
      'a resource template as listed',
      { type: 'ref/resource', uri: 'docs://pages/{id}' },
      { upstream: 'docs', ref: { type: 'ref/resource', uri: 'docs://pages/{id}' } },
    ],
    [
      'a listed resource',
      { type: 'ref/resource', uri: 'docs://readme' },
      { upstream: 'docs', ref: { type: 'ref/resource', uri: 'docs://readme' } },
    ],
    ['a prompt by its upstream name alone', { type: 'ref/prompt', name: 'summarize' }, undefined],
    ['an unknown resource', { type: 'ref/resource', uri: 'other://x/{y}' }, undefined],
  ])('%s', (_name, ref, routed) => {
    expect(routeCompletion(surface, ref)).toEqual(routed);
  });
});
