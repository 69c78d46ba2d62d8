import { copyFile, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { isPortcullisError } from '../errors/index.ts';
import { CATALOG_SCHEMA_FILE, DEFAULT_CATALOG_DIR, loadServerCatalog } from './server-catalog.ts';
import { isTrustedServer, parseTrustSignals, type CatalogEntry } from '../risk/index.ts';

const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

async function tempCatalog(files: Record<string, unknown>): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'portcullis-catalog-'));
  dirs.push(dir);
  for (const [name, content] of Object.entries(files)) {
    await writeFile(join(dir, name), typeof content === 'string' ? content : JSON.stringify(content));
  }
  return dir;
}

const VALID: CatalogEntry = {
  id: 'acme',
  name: 'Acme',
  match: { packages: ['acme-mcp'] },
  trustSignals: ['community'],
  docsUrl: null,
  docsAdequate: false,
  transports: [{ type: 'stdio', auth: 'NONE' }],
  tools: { run: { riskFactors: { exec: true } } },
};

describe('the bundled catalog', () => {
  it('loads, validates and sorts by id', async () => {
    const catalog = loadServerCatalog();
    const ids = catalog.map((entry) => entry.id);
    expect(ids).toEqual([...ids].sort());
    for (const id of [
      'everything',
      'filesystem',
      'memory',
      'github',
      'gitlab',
      'slack',
      'postgres',
      'sqlite',
      'fetch',
      'git',
      'puppeteer',
      'brave-search',
      'google-maps',
      'sentry',
      'time',
    ]) {
      expect(ids).toContain(id);
    }
  });

  it('only uses known trust signals and documents every server', async () => {
    for (const entry of loadServerCatalog()) {
      expect(parseTrustSignals(entry.trustSignals)).toHaveLength(entry.trustSignals.length);
      expect(isTrustedServer(entry)).toBe(true);
      expect(entry.docsUrl).toMatch(/^https:\/\//);
      expect((entry.match.packages ?? []).length + (entry.match.hosts ?? []).length).toBeGreaterThan(0);
    }
  });

  it('marks the archived reference servers as archived and not vendor-official', async () => {
    for (const entry of loadServerCatalog()) {
      if (entry.maintenance !== 'archived') continue;
      expect(parseTrustSignals(entry.trustSignals)).not.toContain('VENDOR_OFFICIAL');
    }
  });
});

describe('loadServerCatalog on other folders', () => {
  it('reads a folder and lets a later folder replace an entry with the same id', async () => {
    const first = await tempCatalog({ 'acme.json': VALID });
    const second = await tempCatalog({ 'acme.json': { ...VALID, name: 'Acme 2' } });
    const catalog = loadServerCatalog({ dirs: [first, second] });
    expect(catalog).toEqual([{ ...VALID, name: 'Acme 2' }]);
  });

  it('skips a schema file placed in an entry folder', async () => {
    const dir = await tempCatalog({ 'acme.json': VALID });
    await copyFile(join(DEFAULT_CATALOG_DIR, CATALOG_SCHEMA_FILE), join(dir, CATALOG_SCHEMA_FILE));
    expect(loadServerCatalog({ dirs: [dir] })).toHaveLength(1);
  });

  it.each<[string, Record<string, unknown>, string]>([
    ['not JSON', { 'acme.json': '{ nope' }, 'not valid JSON'],
    ['unknown key', { 'acme.json': { ...VALID, extra: true } }, 'must NOT have additional properties'],
    [
      'missing field',
      { 'acme.json': { ...VALID, transports: undefined } },
      "must have required property 'transports'",
    ],
    [
      'bad scope',
      { 'acme.json': { ...VALID, tools: { run: { sideEffectScope: 'EVERYWHERE' } } } },
      '/tools/run/sideEffectScope',
    ],
    ['id differs from file name', { 'other.json': VALID }, "id 'acme' does not match the file name"],
  ])('refuses %s with CONFIG_INVALID naming the file', async (_name, files, message) => {
    const dir = await tempCatalog(files);
    let error: unknown;
    try {
      loadServerCatalog({ dirs: [dir] });
    } catch (caught) {
      error = caught;
    }
    expect(isPortcullisError(error, 'CONFIG_INVALID')).toBe(true);
    expect((error as Error).message).toContain(Object.keys(files)[0]);
    expect((error as Error).message).toContain(message);
  });
});
