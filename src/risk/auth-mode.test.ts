import { describe, expect, it } from 'vitest';
import { classifyAuthMode, inferAuthMode } from './auth-mode.ts';
import type { ConnectionAuthShape } from './auth-mode.ts';

describe('classifyAuthMode (R-SRV-2)', () => {
  it.each<[string | null, string | null, string]>([
    [null, null, 'NONE'],
    ['', null, 'NONE'],
    ['  ', null, 'NONE'],
    ['NONE', null, 'NONE'],
    ['API_KEY', null, 'API_KEY'],
    ['apikey', null, 'API_KEY'],
    ['Api-Key', null, 'API_KEY'],
    ['BEARER', null, 'BEARER'],
    ['oauth', null, 'OAUTH_STANDARD'],
    ['OAUTH', 'https://auth.example.com', 'OAUTH_STANDARD'],
    ['OAUTH', 'urn:ietf:wg:oauth:2.0:oob', 'OAUTH_CUSTOM'],
    ['OAUTH', 'https://custom.example.com', 'OAUTH_CUSTOM'],
    ['OAUTH', 'https://x.example.com/manual-paste', 'OAUTH_CUSTOM'],
    ['OAUTH_OR_PAT', null, 'OAUTH_STANDARD'],
    ['OAUTH_CUSTOM', null, 'OAUTH_CUSTOM'],
    ['oauth-custom', null, 'OAUTH_CUSTOM'],
    ['BASIC', null, 'NONE'],
    ['mTLS', null, 'NONE'],
  ])('%s (issuer %s) → %s', (raw, issuer, expected) => {
    expect(classifyAuthMode(raw, issuer)).toBe(expected);
  });
});

describe('inferAuthMode (no catalog entry)', () => {
  it.each<[string, ConnectionAuthShape, string]>([
    ['oauth object', { oauth: { clientId: 'x' } }, 'OAUTH_STANDARD'],
    ['oauth wins over headers', { oauth: {}, headers: { Authorization: 'Bearer x' } }, 'OAUTH_STANDARD'],
    ['null oauth is ignored', { oauth: null }, 'NONE'],
    ['headers key', { headers: { Authorization: 'Bearer x' } }, 'BEARER'],
    ['any headers key, even empty', { headers: {} }, 'BEARER'],
    ['nothing', {}, 'NONE'],
  ])('%s → %s', (_name, connection, expected) => {
    expect(inferAuthMode(connection)).toBe(expected);
  });
});
