/**
 * Issue 20: the gateway owns the JSON-RPC wire of both hops and both eras, with one call path per hop. No source
 * file may build the SDK's clients, servers or transports (or import them as values) beside the gateway's own:
 * the SDK still lends types, errors, schemas and era helpers.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SRC = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../src');

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    // A domain's test/ folder holds fixtures (upstream servers written with the SDK on purpose), not the gateway.
    if (entry.isDirectory()) return entry.name === 'test' ? [] : sources(full);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [full] : [];
  });
}

/** The SDK classes and factories whose work the gateway's own wire does. */
const OWNED = new Set([
  'Client',
  'Server',
  'McpServer',
  'Protocol',
  'createMcpHandler',
  'serveStdio',
  'StdioClientTransport',
  'StdioServerTransport',
  'StreamableHTTPClientTransport',
  'SSEClientTransport',
  'WebStandardStreamableHTTPServerTransport',
  'PerRequestHTTPServerTransport',
]);

/** The names a file imports as values from an SDK package (`import type` and `type` members left out). */
function sdkValueImports(text: string): string[] {
  const names: string[] = [];
  for (const match of text.matchAll(
    /import\s*(type\s*)?\{([^}]*)\}\s*from\s*'@modelcontextprotocol\/[^']+'/g,
  )) {
    if (match[1] !== undefined) continue;
    for (const member of (match[2] ?? '').split(',')) {
      const name = member.trim();
      if (name !== '' && !name.startsWith('type ')) names.push(name.split(/\s+as\s+/)[0] ?? name);
    }
  }
  return names;
}

describe('the SDK clients, servers and transports', () => {
  it('are neither built nor imported as values anywhere in src/', () => {
    const files = sources(SRC);
    expect(files.length).toBeGreaterThan(50);
    const offenders = files.flatMap((file) => {
      const text = readFileSync(file, 'utf8');
      const used = sdkValueImports(text).filter((name) => OWNED.has(name));
      if (/\bnew (Client|Server|McpServer)\s*\(/.test(text)) used.push('new …');
      return used.length === 0 ? [] : [`${path.relative(SRC, file)}: ${used.join(', ')}`];
    });
    expect(offenders).toEqual([]);
  });

  it('finds a value import of one of them, and passes over a type-only one', () => {
    expect(sdkValueImports("import { Server, type Tool } from '@modelcontextprotocol/server';")).toEqual([
      'Server',
    ]);
    expect(sdkValueImports("import { serveStdio } from '@modelcontextprotocol/server/stdio';")).toEqual([
      'serveStdio',
    ]);
    expect(sdkValueImports("import type { Client } from '@modelcontextprotocol/client';")).toEqual([]);
  });
});
