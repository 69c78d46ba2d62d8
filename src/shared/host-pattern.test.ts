import { describe, expect, it } from 'vitest';
import { isHostAllowed, matchesHostPattern } from './host-pattern.ts';

// Before this module, the catalog matcher (risk) and the egress allowlist (sandbox) each had a
// `matchesHostPattern`, and they disagreed on the rows marked "was": the catalog excluded the apex, kept a
// trailing dot and brackets, and treated `*` as a literal host.
describe('matchesHostPattern', () => {
  it.each<[string, string, boolean, string]>([
    ['api.example.com', 'api.example.com', true, ''],
    ['API.Example.COM', ' api.example.com ', true, ''],
    ['api.githubcopilot.com', 'API.GitHubCopilot.com', true, ''],
    ['x.api.githubcopilot.com', 'api.githubcopilot.com', false, ''],
    ['a.example.com', '*.example.com', true, ''],
    ['a.b.example.com', '*.example.com', true, ''],
    ['example.com', '*.example.com', true, 'was false in the catalog'],
    ['api.example.com.', 'api.example.com', true, 'was false in the catalog'],
    ['a.example.com.', '*.example.com', true, 'was false in the catalog'],
    ['example.com', '*.example.com.', true, 'was false in the catalog'],
    ['::1', '[::1]', true, 'was false in the catalog'],
    ['anything.org', '*', true, 'was false in the catalog'],
    ['notexample.com', '*.example.com', false, ''],
    ['evilexample.com', '*.example.com', false, ''],
    ['example.com.evil.org', '*.example.com', false, ''],
    ['api.example.com', 'example.com', false, ''],
    ['example.com', '', false, ''],
    ['', '*', false, ''],
    ['example.com', '*.', false, ''],
  ])('%j vs %j → %s %s', (host, pattern, expected) => {
    expect(matchesHostPattern(host, pattern)).toBe(expected);
  });
});

describe('isHostAllowed', () => {
  it('matches any pattern of the list, and nothing with an empty list', () => {
    expect(isHostAllowed('b.example.org', ['a.example.com', '*.example.org'])).toBe(true);
    expect(isHostAllowed('example.com', [])).toBe(false);
  });
});
