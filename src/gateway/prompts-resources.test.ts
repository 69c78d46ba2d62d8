import type { Prompt } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import type { PromptOverride } from '../config/index.ts';
import type { UpstreamSnapshot } from '../upstream/index.ts';
import { buildUpstreamSurface } from './prompts-resources.ts';

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
