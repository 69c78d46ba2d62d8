import { describe, expect, it } from 'vitest';
import { matchCatalogEntry, packageCandidates } from './catalog-match.ts';
import type { CatalogMatchTarget } from './catalog-match.ts';
import type { CatalogEntry } from './catalog-types.ts';

function entry(id: string, packages: string[], hosts: string[] = []): CatalogEntry {
  return {
    id,
    name: id,
    match: { packages, hosts },
    trustSignals: [],
    docsUrl: null,
    docsAdequate: false,
    transports: [{ type: 'stdio', auth: 'NONE' }],
    tools: {},
  };
}

const CATALOG = [
  entry('filesystem', ['@modelcontextprotocol/server-filesystem', 'mcp/filesystem']),
  entry('fetch', ['mcp-server-fetch', 'mcp_server_fetch']),
  entry(
    'github-official',
    ['ghcr.io/github/github-mcp-server', 'github-mcp-server'],
    ['api.githubcopilot.com'],
  ),
  entry('wild', [], ['*.wild.example']),
];

describe('packageCandidates', () => {
  it.each<[string, string[]]>([
    ['@modelcontextprotocol/server-filesystem', ['@modelcontextprotocol/server-filesystem']],
    [
      '@modelcontextprotocol/server-filesystem@2026.8.31',
      ['@modelcontextprotocol/server-filesystem@2026.8.31', '@modelcontextprotocol/server-filesystem'],
    ],
    ['mcp-server-fetch==2025.1.0', ['mcp-server-fetch==2025.1.0', 'mcp-server-fetch']],
    [
      'ghcr.io/github/github-mcp-server:v1.0',
      ['ghcr.io/github/github-mcp-server:v1.0', 'ghcr.io/github/github-mcp-server'],
    ],
    ['localhost:5000/img', ['localhost:5000/img']],
  ])('%s', (token, candidates) => {
    expect(packageCandidates(token)).toEqual(candidates);
  });
  it('finds the package inside a node_modules path', () => {
    expect(
      packageCandidates('/srv/app/node_modules/@modelcontextprotocol/server-filesystem/dist/index.js'),
    ).toContain('@modelcontextprotocol/server-filesystem');
  });
  it('takes the base name of a binary path', () => {
    expect(packageCandidates('/usr/local/bin/github-mcp-server.exe')).toContain('github-mcp-server');
  });
});

describe('matchCatalogEntry: explicit id, else package, else host', () => {
  it.each<[string, CatalogMatchTarget, string | null, string]>([
    [
      'npx package',
      { transport: 'stdio', command: 'npx', args: ['-y', '@modelcontextprotocol/server-filesystem', '/tmp'] },
      'filesystem',
      'package',
    ],
    [
      'pinned npx package',
      { transport: 'stdio', command: 'npx', args: ['@modelcontextprotocol/server-filesystem@1.0.0'] },
      'filesystem',
      'package',
    ],
    [
      'node + node_modules path',
      {
        transport: 'stdio',
        command: 'node',
        args: ['node_modules/@modelcontextprotocol/server-filesystem/dist/index.js'],
      },
      'filesystem',
      'package',
    ],
    [
      'docker image',
      { transport: 'stdio', command: 'docker', args: ['run', '-i', '--rm', 'mcp/filesystem'] },
      'filesystem',
      'package',
    ],
    [
      'uvx python package',
      { transport: 'stdio', command: 'uvx', args: ['mcp-server-fetch'] },
      'fetch',
      'package',
    ],
    [
      'python -m module',
      { transport: 'stdio', command: 'python', args: ['-m', 'mcp_server_fetch'] },
      'fetch',
      'package',
    ],
    [
      'binary as command',
      { transport: 'stdio', command: '/opt/bin/github-mcp-server', args: ['stdio'] },
      'github-official',
      'package',
    ],
    [
      'remote host',
      { transport: 'streamable-http', url: 'https://api.githubcopilot.com/mcp/' },
      'github-official',
      'host',
    ],
    ['wildcard host', { transport: 'sse', url: 'https://eu.wild.example/sse' }, 'wild', 'host'],
    // The shared host-pattern rules: `*.wild.example` covers the apex, and a trailing dot is the same host.
    ['wildcard host, apex', { transport: 'sse', url: 'https://wild.example/sse' }, 'wild', 'host'],
    [
      'host with a trailing dot',
      { transport: 'sse', url: 'https://api.githubcopilot.com./mcp' },
      'github-official',
      'host',
    ],
    [
      'near miss: wildcard suffix',
      { transport: 'sse', url: 'https://evilwild.example/sse' },
      null,
      'no_match',
    ],
    [
      'explicit id wins',
      { catalogId: 'fetch', transport: 'streamable-http', url: 'https://api.githubcopilot.com/mcp/' },
      'fetch',
      'explicit',
    ],
    [
      'packages are not matched for URLs',
      { transport: 'streamable-http', url: 'https://mcp-server-fetch.example/' },
      null,
      'no_match',
    ],
    [
      'hosts are not matched for stdio',
      { transport: 'stdio', command: 'api.githubcopilot.com' },
      null,
      'no_match',
    ],
    [
      'near miss: similar package',
      { transport: 'stdio', command: 'npx', args: ['@evil/server-filesystem'] },
      null,
      'no_match',
    ],
    ['near miss: no URL', { transport: 'streamable-http' }, null, 'no_match'],
    [
      'unknown explicit id',
      { catalogId: 'nope', transport: 'stdio', command: 'uvx', args: ['mcp-server-fetch'] },
      null,
      'unknown_catalog_id',
    ],
  ])('%s', (_name, target, id, by) => {
    const match = matchCatalogEntry(CATALOG, target);
    if (id === null) {
      expect(match).toEqual({ matched: false, reason: by });
    } else {
      expect(match).toMatchObject({ matched: true, by, entry: { id } });
    }
  });
});
