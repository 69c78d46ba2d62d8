import { describe, expect, it } from 'vitest';
import { definitionRows, lineRows } from './definition-rows.ts';

describe('lineRows', () => {
  it('keeps common lines and pairs a changed line with its replacement', () => {
    expect(lineRows('description', 'one\ntwo\nthree', 'one\nTWO\nthree\nfour')).toEqual([
      { field: 'description', path: '1', old: 'one', new: 'one', kind: 'same' },
      { field: 'description', path: '2', old: 'two', new: 'TWO', kind: 'changed' },
      { field: 'description', path: '3', old: 'three', new: 'three', kind: 'same' },
      { field: 'description', path: '4', new: 'four', kind: 'added' },
    ]);
  });

  it('marks a dropped line removed', () => {
    expect(lineRows('description', 'a\nb', 'a').map((r) => r.kind)).toEqual(['same', 'removed']);
  });
});

describe('definitionRows', () => {
  it('lays schemas out by JSON Pointer with arrays whole, and marks what changed', () => {
    const old = {
      name: 'echo',
      description: 'Echoes.',
      inputSchema: { type: 'object', properties: { 'a/b': { type: 'string' } }, required: ['a/b'] },
    };
    const now = {
      name: 'echo',
      description: 'Echoes.',
      inputSchema: { type: 'object', properties: { 'a/b': { type: 'number' } }, required: ['a/b'] },
      annotations: { readOnlyHint: true },
    };
    expect(definitionRows(old, now)).toEqual([
      { field: 'name', path: '', old: 'echo', new: 'echo', kind: 'same' },
      { field: 'description', path: '1', old: 'Echoes.', new: 'Echoes.', kind: 'same' },
      { field: 'inputSchema', path: '/type', old: 'object', new: 'object', kind: 'same' },
      { field: 'inputSchema', path: '/properties/a~1b/type', old: 'string', new: 'number', kind: 'changed' },
      { field: 'inputSchema', path: '/required', old: '["a/b"]', new: '["a/b"]', kind: 'same' },
      { field: 'annotations', path: '/readOnlyHint', new: 'true', kind: 'added' },
    ]);
  });

  it('shows only the current side when nothing was approved', () => {
    expect(definitionRows(null, { name: 'x' })).toEqual([
      { field: 'name', path: '', new: 'x', kind: 'added' },
    ]);
  });
});
