import type { Tool } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import type { ProfileConfig } from '../config/index.ts';
import type { Principal } from '../identity/index.ts';
import type { RiskLevel } from '../risk/index.ts';
import { compileProfile, compileProfiles } from './profiles.ts';
import type { ExposedTool, ToolRisk } from './types.ts';

/** Only the level matters to profiles. */
const riskAt = (effective: RiskLevel) => ({ effective }) as ToolRisk;

function upstreamTool(alias: string, upstream: string, risk?: RiskLevel): ExposedTool {
  const definition: Tool = { name: alias, inputSchema: { type: 'object' } };
  return {
    origin: 'upstream',
    alias,
    upstream,
    upstreamTool: alias,
    composition: `upstream:${upstream}`,
    definition,
    source: definition,
    hitl: 'AUTO_APPROVE',
    exposed: true,
    ...(risk === undefined ? {} : { governance: { risk: riskAt(risk) } }),
  };
}

function localTool(alias: string, tags: string[], category: string): ExposedTool {
  const definition: Tool = { name: alias, inputSchema: { type: 'object' } };
  return {
    origin: 'local',
    alias,
    localToolId: alias,
    localSource: 'user',
    definition,
    source: definition,
    hitl: 'AUTO_APPROVE',
    exposed: true,
    governance: {
      tags,
      category,
      risk: riskAt('L1'),
    },
  };
}

const READ = upstreamTool('files_read_file', 'files', 'L1');
const WRITE = upstreamTool('files_write_file', 'files', 'L3');
const ECHO = upstreamTool('everything_echo', 'everything', 'L0');
const UNSCORED = upstreamTool('files_list_dir', 'files');
const LOCAL = localTool('json_query', ['json', 'data'], 'DATA');

describe('tool selection', () => {
  it.each<[string, ProfileConfig['tools'], ExposedTool, boolean]>([
    ['no tools block serves every tool', undefined, WRITE, true],
    ['include glob hit', { include: ['files_read_*'] }, READ, true],
    ['include glob miss', { include: ['files_read_*'] }, WRITE, false],
    ['empty include serves nothing', { include: [] }, ECHO, false],
    ['exclude wins over include', { include: ['files_*'], exclude: ['files_write_*'] }, WRITE, false],
    ['exclude alone keeps the rest', { exclude: ['files_write_*'] }, READ, true],
    ['upstream hit', { upstreams: ['files'] }, READ, true],
    ['upstream miss', { upstreams: ['files'] }, ECHO, false],
    ['upstream filter leaves out local tools', { upstreams: ['*'] }, LOCAL, false],
    ['tag hit (any tag)', { tags: ['data'] }, LOCAL, true],
    ['category counts as a tag', { tags: ['DATA'] }, LOCAL, true],
    ['tag miss', { tags: ['web'] }, LOCAL, false],
    ['upstream tools carry no tags', { tags: ['*'] }, READ, false],
    ['risk at the cap passes', { maxRisk: 'L1' }, READ, true],
    ['risk above the cap is left out', { maxRisk: 'L2' }, WRITE, false],
    ['an unscored tool counts as L5', { maxRisk: 'L4' }, UNSCORED, false],
    ['L5 cap takes even unscored tools', { maxRisk: 'L5' }, UNSCORED, true],
    [
      'all filters must hold',
      { include: ['files_*', 'everything_*'], upstreams: ['everything'], maxRisk: 'L0' },
      ECHO,
      true,
    ],
    ['all filters must hold (one fails)', { include: ['files_*'], maxRisk: 'L3' }, ECHO, false],
  ])('%s', (_name, tools, tool, expected) => {
    const profile = compileProfile('p', tools === undefined ? {} : { tools });
    expect(profile.hasTool(tool)).toBe(expected);
  });

  it('advertises the exposed tools of the profile and reuses the list until the registry rebuilds', () => {
    const profile = compileProfile('p', { tools: { include: ['files_*'] } });
    const withheld = { ...WRITE, exposed: false };
    const tools = [READ, withheld, ECHO];
    const first = profile.advertised(tools);
    expect(first.map((t) => t.name)).toEqual(['files_read_file']);
    expect(profile.advertised(tools)).toBe(first);
    const rebuilt = [READ, WRITE, ECHO];
    expect(profile.advertised(rebuilt).map((t) => t.name)).toEqual(['files_read_file', 'files_write_file']);
  });
});

describe('prompt and resource selection', () => {
  it.each<[string, ProfileConfig, string, boolean, boolean]>([
    ['no blocks serve everything', {}, 'every_simple-prompt', true, true],
    ['include', { prompts: { include: ['every_*'] } }, 'every_simple-prompt', true, true],
    [
      'exclude',
      { prompts: { exclude: ['*'] }, resources: { exclude: ['every_*'] } },
      'every_x',
      false,
      false,
    ],
    ['resources only', { resources: { include: ['docs_*'] } }, 'every_x', true, false],
  ])('%s', (_name, config, name, prompt, resource) => {
    const profile = compileProfile('p', config);
    expect(profile.hasPrompt(name)).toBe(prompt);
    expect(profile.hasResource(name)).toBe(resource);
  });
});

const person = (over: Partial<Principal>): Principal => ({
  id: 'alice@example.com',
  source: 'oauth',
  issuer: 'https://idp.example.com',
  groups: [],
  scopes: [],
  ...over,
});
const key = (id: string, issuer?: string): Principal => ({
  id,
  source: 'api-key',
  ...(issuer === undefined ? {} : { issuer }),
  groups: [],
  scopes: [],
});

describe('who may use a profile', () => {
  it.each<[string, ProfileConfig['principals'], Principal, boolean]>([
    ['no principals block admits everyone', undefined, person({}), true],
    ['no principals block admits anonymous', undefined, key('anonymous'), true],
    ['group hit', { groups: ['contractors'] }, person({ groups: ['staff', 'contractors'] }), true],
    ['group glob', { groups: ['team-*'] }, person({ groups: ['team-a'] }), true],
    ['group miss', { groups: ['contractors'] }, person({ groups: ['staff'] }), false],
    ['scope hit', { scopes: ['mcp:readonly'] }, person({ scopes: ['mcp', 'mcp:readonly'] }), true],
    ['scope miss', { scopes: ['mcp:admin'] }, person({ scopes: ['mcp'] }), false],
    ['key by principal id', { keys: ['key:0123abcd'] }, key('key:0123abcd'), true],
    ['key by name', { keys: ['ci-bot'] }, key('key:ci-bot', 'ci-bot'), true],
    ['key miss', { keys: ['ci-bot'] }, key('key:other', 'other'), false],
    ['keys name an OAuth subject by id', { keys: ['alice@*'] }, person({}), true],
    ['an OAuth issuer is not a key name', { keys: ['https://idp.example.com'] }, person({}), false],
    ['any list admits', { keys: ['ci-bot'], groups: ['staff'] }, person({ groups: ['staff'] }), true],
    ['an empty block admits nobody', {}, person({ groups: ['staff'] }), false],
  ])('%s', (_name, principals, principal, expected) => {
    const profile = compileProfile('p', principals === undefined ? {} : { principals });
    expect(profile.admits(principal)).toBe(expected);
  });
});

describe('the profiles of a config', () => {
  it('serves everything to everyone at /mcp while no default is configured', () => {
    const profiles = compileProfiles({ readonly: { tools: { include: ['files_read_*'] } } });
    expect(profiles.default.name).toBe('default');
    expect(profiles.default.hasTool(WRITE)).toBe(true);
    expect(profiles.default.admits(key('anonymous'))).toBe(true);
    expect(profiles.get('readonly')?.hasTool(WRITE)).toBe(false);
    expect(profiles.get('nope')).toBeUndefined();
  });

  it('uses the configured default at /mcp', () => {
    const profiles = compileProfiles({ default: { tools: { include: ['everything_*'] } } });
    expect(profiles.default.hasTool(ECHO)).toBe(true);
    expect(profiles.default.hasTool(READ)).toBe(false);
    expect(profiles.get('default')).toBe(profiles.default);
  });

  it('does not treat inherited object keys as profiles', () => {
    expect(compileProfiles({}).get('toString')).toBeUndefined();
  });
});
