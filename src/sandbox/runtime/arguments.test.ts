import { describe, expect, it } from 'vitest';
import { PortcullisError } from '../../errors/index.ts';
import { bindArguments, isBindableName } from './arguments.ts';

describe('isBindableName', () => {
  it.each([
    ['text', true],
    ['_private', true],
    ['$dollar', true],
    ['naverClientId', true],
    ['ünïcode', true],
    ['Object', true],
    ['not-valid', false],
    ['1abc', false],
    ['', false],
    ['class', false],
    ['await', false],
    ['eval', false],
    ['undefined', false],
    ['__proto__', false],
    ['fetch', false],
    ['console', false],
    ['safety', false],
    ['__pcRun', false],
  ])('%s: %s', (name, expected) => {
    expect(isBindableName(name)).toBe(expected);
  });
});

describe('bindArguments', () => {
  it('declares every name and drops null and blank values', () => {
    const bound = bindArguments({ a: 1, b: null, c: '  ', d: '', e: 'x', f: undefined, g: { h: [1] } });
    expect(bound.names).toEqual(['a', 'b', 'c', 'd', 'e', 'f', 'g']);
    expect(JSON.parse(bound.json)).toEqual({ a: 1, e: 'x', g: { h: [1] } });
  });

  it('refuses values that are not JSON', () => {
    expect(() => bindArguments({ big: 10n })).toThrow(PortcullisError);
  });

  it('refuses names that cannot be bound', () => {
    expect(() => bindArguments({ 'a-b': 1 })).toThrow(/cannot be bound/);
  });
});
