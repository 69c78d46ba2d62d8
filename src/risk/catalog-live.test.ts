// The bundled catalog against the real upstream servers installed from npm (integration tests use real parts).
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadServerCatalog } from '../config/index.ts';
import { matchCatalogEntry } from './catalog-match.ts';
import type { CatalogEntry } from './catalog-types.ts';
import { assessServer, evaluateToolRisk } from './evaluate.ts';
import { scanTool } from '../poisoning/poisoning-scanner.ts';
import type { McpToolDefinition } from './tool-definition.ts';
import { findToolDescriptor } from './tool-inputs.ts';

const MODULES = fileURLToPath(new URL('../../node_modules/@modelcontextprotocol/', import.meta.url));
let workDir = '';
let catalog: CatalogEntry[] = [];

beforeAll(async () => {
  workDir = await mkdtemp(join(tmpdir(), 'portcullis-live-'));
  catalog = loadServerCatalog();
});
afterAll(async () => {
  await rm(workDir, { recursive: true, force: true });
});

async function listLiveTools(args: string[]): Promise<McpToolDefinition[]> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args,
    env: { MEMORY_FILE_PATH: join(workDir, 'memory.jsonl') },
    stderr: 'ignore',
  });
  const client = new Client({ name: 'portcullis-catalog-test', version: '0.0.0' });
  await client.connect(transport);
  try {
    return (await client.listTools()).tools;
  } finally {
    await client.close();
  }
}

describe.each([
  ['server-filesystem', 'filesystem', true],
  ['server-memory', 'memory', false],
  ['server-everything', 'everything', false],
])('@modelcontextprotocol/%s', (pkg, catalogId, needsRoot) => {
  let tools: McpToolDefinition[] = [];
  let entry: CatalogEntry;

  beforeAll(async () => {
    const args = [join(MODULES, pkg, 'dist', 'index.js'), ...(needsRoot ? [workDir] : [])];
    const match = matchCatalogEntry(catalog, { transport: 'stdio', command: process.execPath, args });
    if (!match.matched) throw new Error(`no catalog entry matched ${pkg}`);
    entry = match.entry;
    tools = await listLiveTools(args);
  });

  it('is recognised from its node_modules path', () => {
    expect(entry.id).toBe(catalogId);
  });

  it('has a catalog descriptor for every live tool', () => {
    expect(tools.length).toBeGreaterThan(0);
    expect(
      tools.map((tool) => tool.name).filter((name) => findToolDescriptor(entry, name) === undefined),
    ).toEqual([]);
  });

  it('has honest tool definitions that scan clean', () => {
    expect(tools.flatMap((tool) => scanTool(tool).matches)).toEqual([]);
  });

  it('scores every live tool through the one evaluation path', () => {
    const server = assessServer({ transport: 'stdio' }, entry, 0);
    expect(server.risk.level).toBe('L1');
    for (const tool of tools) {
      const result = evaluateToolRisk({
        server,
        tool,
        descriptor: findToolDescriptor(entry, tool.name),
        hitl: false,
        scan: scanTool(tool),
      });
      if (tool.name.startsWith('delete_')) expect(result.floorTrigger).toBe('irreversible_verb_in_tool_name');
      if (tool.annotations?.readOnlyHint === true && tool.annotations.openWorldHint !== true) {
        expect(result.final).toBe('L1');
      }
    }
  });
});
