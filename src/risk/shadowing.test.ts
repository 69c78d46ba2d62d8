import { describe, expect, it } from 'vitest';
import {
  checkAliasCollisions,
  checkCrossServerReferences,
  checkSelfScopeViolations,
  toolMetadataKey,
} from './shadowing.ts';
import type { ComposedTool, ToolMetadata } from './shadowing.ts';

function member(serverId: string, toolName: string, exposedAlias = toolName): ComposedTool {
  return { serverId, toolName, exposedAlias };
}

function metadata(entries: Array<[ComposedTool, string | null]>): Map<string, ToolMetadata> {
  return new Map(
    entries.map(([m, description]) => [toolMetadataKey(m.serverId, m.toolName), { description }]),
  );
}

describe('R1_ALIAS_COLLISION', () => {
  it('flags an alias used by two enabled compositions', () => {
    const violations = checkAliasCollisions([
      { id: 'c1', enabled: true, members: [member('a', 'search')] },
      { id: 'c2', enabled: true, members: [member('b', 'find', 'search')] },
    ]);
    expect(violations).toEqual([
      {
        rule: 'R1_ALIAS_COLLISION',
        alias: 'search',
        compositionIds: 'c1,c2',
        detail: "Alias 'search' is used by 2 enabled compositions.",
      },
    ]);
  });
  it('flags the same alias twice inside one composition', () => {
    const violations = checkAliasCollisions([
      { id: 'c1', enabled: true, members: [member('a', 'search'), member('b', 'search')] },
    ]);
    expect(violations.map((v) => v.rule === 'R1_ALIAS_COLLISION' && v.compositionIds)).toEqual(['c1,c1']);
  });
  it('near miss: disabled compositions are skipped', () => {
    expect(
      checkAliasCollisions([
        { id: 'c1', enabled: true, members: [member('a', 'search')] },
        { id: 'c2', enabled: false, members: [member('b', 'search')] },
      ]),
    ).toEqual([]);
  });
  it('near miss: aliases are case-sensitive', () => {
    expect(
      checkAliasCollisions([
        { id: 'c1', enabled: true, members: [member('a', 'search')] },
        { id: 'c2', enabled: true, members: [member('b', 'Search')] },
      ]),
    ).toEqual([]);
  });
});

describe('R2_CROSS_SERVER_REFERENCE', () => {
  const notion = member('notion', 'create_page', 'notion_create_page');
  it.each<[string, string, number]>([
    ['verb next to the name', 'After searching, call create_page with the results.', 1],
    ['verb far from the name', 'Run a search. Output is compatible with create_page.', 1],
    ['alias mentioned', 'Then call notion_create_page.', 1],
    ['multi-word verb', 'Results can be passed on; delegate to create_page.', 1],
    ['upper case', 'USE CREATE_PAGE AFTERWARDS', 1],
    ['near miss: no command verb', 'Output is compatible with create_page.', 0],
    ['near miss: verb only inside a word', 'Useful output for create_page and rerun-safe.', 0],
    ['near miss: verb but no other name', 'Use this to search the web.', 0],
  ])('%s → %i', (_name, description, count) => {
    const search = member('web', 'search');
    const violations = checkCrossServerReferences([search, notion], metadata([[search, description]]));
    expect(violations).toHaveLength(count);
    if (count > 0)
      expect(violations[0]).toMatchObject({
        rule: 'R2_CROSS_SERVER_REFERENCE',
        member: search,
        referenced: notion,
      });
  });
  it('never compares members of the same server (ids compared ignoring case)', () => {
    const a = member('Web', 'search');
    const b = member('web', 'fetch');
    expect(checkCrossServerReferences([a, b], metadata([[a, 'Then call fetch.']]))).toEqual([]);
  });
  it('skips members without metadata or description', () => {
    const a = member('web', 'search');
    expect(checkCrossServerReferences([a, notion], new Map())).toEqual([]);
    expect(checkCrossServerReferences([a, notion], metadata([[a, null]]))).toEqual([]);
  });
});

describe('R3_SELF_SCOPE_VIOLATION', () => {
  it.each<[string, string, string[]]>([
    ['names another server id', 'Works best together with notion pages.', ['notion']],
    ['plain substring: git inside GitHub', 'Searches GitHub issues.', ['git']],
    ['own server id is fine', 'Searches the web index.', []],
    ['two other ids', 'Copies git history into notion.', ['notion', 'git']],
  ])('%s', (_name, description, serverIds) => {
    const web = member('web', 'search');
    const members = [web, member('Notion', 'create_page'), member('git', 'log')];
    const violations = checkSelfScopeViolations(members, metadata([[web, description]]));
    expect(violations.map((v) => v.rule === 'R3_SELF_SCOPE_VIOLATION' && v.serverId)).toEqual(serverIds);
  });
});
