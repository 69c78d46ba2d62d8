import { describe, expect, it } from 'vitest';
import type { CatalogEntry, CatalogToolDescriptor } from './catalog-types.ts';
import { effectiveAnnotations, findToolDescriptor, inferSideEffectScope } from './tool-inputs.ts';

describe('inferSideEffectScope (R-TOOL-2)', () => {
  it.each<[string, CatalogToolDescriptor | undefined, string]>([
    ['no descriptor', undefined, 'UNKNOWN'],
    ['empty descriptor', {}, 'LOCAL_ONLY'],
    ['write', { riskFactors: { write: true } }, 'REMOTE_WRITE_SCOPE'],
    ['exec', { riskFactors: { exec: true } }, 'REMOTE_ADMIN_SCOPE'],
    ['irreversible', { riskFactors: { irreversible: true } }, 'REMOTE_ADMIN_SCOPE'],
    ['write and irreversible', { riskFactors: { write: true, irreversible: true } }, 'REMOTE_ADMIN_SCOPE'],
    ['sendsUserData only', { riskFactors: { sendsUserData: true } }, 'LOCAL_ONLY'],
    ['explicit scope wins', { sideEffectScope: 'UNKNOWN', riskFactors: { exec: true } }, 'UNKNOWN'],
  ])('%s → %s', (_name, descriptor, scope) => {
    expect(inferSideEffectScope(descriptor)).toBe(scope);
  });
});

describe('effectiveAnnotations (R-TOOL-2: the catalog overrides live annotations)', () => {
  it('overrides key by key and keeps the other live keys', () => {
    expect(
      effectiveAnnotations(
        { title: 'Live', readOnlyHint: true, openWorldHint: false },
        { annotations: { readOnlyHint: false, destructiveHint: true } },
      ),
    ).toEqual({ title: 'Live', readOnlyHint: false, openWorldHint: false, destructiveHint: true });
  });
  it('keeps live annotations without overrides', () => {
    const live = { readOnlyHint: true };
    expect(effectiveAnnotations(live, {})).toBe(live);
    expect(effectiveAnnotations(undefined, undefined)).toBeUndefined();
  });
  it('uses catalog annotations when the upstream has none', () => {
    expect(effectiveAnnotations(undefined, { annotations: { readOnlyHint: true } })).toEqual({
      readOnlyHint: true,
    });
  });
});

describe('findToolDescriptor', () => {
  const entry: CatalogEntry = {
    id: 'x',
    name: 'X',
    match: {},
    trustSignals: [],
    docsUrl: null,
    docsAdequate: false,
    transports: [{ type: 'stdio', auth: 'NONE' }],
    tools: { read: { riskFactors: {} } },
  };
  it.each([
    ['read', true],
    ['write', false],
    ['constructor', false],
    ['__proto__', false],
    ['toString', false],
  ])('%s found: %s', (name, found) => {
    expect(findToolDescriptor(entry, name) !== undefined).toBe(found);
  });
  it('returns undefined without an entry', () => {
    expect(findToolDescriptor(null, 'read')).toBeUndefined();
  });
});
