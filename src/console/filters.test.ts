/** The console's filters: the tools page's search and selects, and the audit form turned into admin API queries. */
import { describe, expect, it } from 'vitest';
import { auditQueryOf, filterQueryOf, isoOf } from './pages/audit.tsx';
import { filterTools } from './pages/tools.tsx';
import { toolView } from './test/tool-view.ts';

const tool = toolView;

const TOOLS = [
  tool('every_echo', { description: 'Echoes back the INPUT' }),
  tool('every_sum', { risk: { ...tool('x').risk, final: 'L3' } }),
  tool('files_write', {
    upstream: 'files',
    exposed: false,
    withheldReason: 'fingerprint-awaiting-rereview',
    fingerprint: { hash: 'h', profile: 'p', status: 'AWAITING_REREVIEW' },
  }),
  tool('csv', {
    origin: 'local',
    upstream: null,
    upstreamTool: null,
    localToolId: 'csv-report',
    fingerprint: null,
  }),
];
const none = { q: '', upstream: '', level: '', status: '' };
const names = (filters: Partial<typeof none>) =>
  filterTools(TOOLS, { ...none, ...filters }).map((t) => t.alias);

describe('filterTools', () => {
  it.each([
    [{}, ['every_echo', 'every_sum', 'files_write', 'csv']],
    [{ q: 'input' }, ['every_echo']],
    [{ q: 'CSV-REP' }, ['csv']],
    [{ upstream: 'files' }, ['files_write']],
    [{ upstream: 'local' }, ['csv']],
    [{ level: 'L3' }, ['every_sum']],
    [{ status: 'withheld' }, ['files_write']],
    [{ status: 'exposed', upstream: 'every' }, ['every_echo', 'every_sum']],
    [{ status: 'AWAITING_REREVIEW' }, ['files_write']],
    [{ status: 'REVOKED' }, []],
  ])('%j → %j', (filters, expected) => {
    expect(names(filters)).toEqual(expected);
  });
});

describe('audit filters', () => {
  it.each([
    ['', undefined],
    ['2026-11-25T10:30', '2026-11-25T10:30:00Z'],
    ['2026-11-25T10:30:15', '2026-11-25T10:30:15Z'],
    ['2026-11-25T10:30:15+01:00', '2026-11-25T10:30:15+01:00'],
  ])('reads the time %j as %j', (value, expected) => {
    expect(isoOf(value)).toBe(expected);
  });

  it('names the admin API query fields and keeps the form fields for links', () => {
    const filters = {
      since: '2026-11-25T10:30',
      until: '',
      principal: ' key:abc ',
      profile: 'readonly',
      tool: 'every_echo',
      decision: 'deny',
      outcome: '',
    };
    expect(Object.fromEntries(auditQueryOf(filters))).toEqual({
      since: '2026-11-25T10:30:00Z',
      principal: 'key:abc',
      profile: 'readonly',
      alias: 'every_echo',
      decision: 'deny',
    });
    expect(filterQueryOf(filters).toString()).toBe(
      'since=2026-11-25T10%3A30&principal=+key%3Aabc+&profile=readonly&tool=every_echo&decision=deny',
    );
  });
});
