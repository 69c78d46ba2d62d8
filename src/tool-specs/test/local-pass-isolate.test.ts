/**
 * Local Pass over the real isolated-vm runner (src/sandbox `createToolRunner`). The sandbox door is written in
 * parallel: until it exports createToolRunner this suite is skipped, and it runs by itself once it lands.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadBundledCatalog } from '../catalog.ts';
import type { ToolRunner } from '../deps.ts';
import { parseSpec } from '../document.ts';
import { publishSpecFile, runLocalPass, type LocalPassDeps } from '../local-pass.ts';
import { loadSandboxPolicies } from '../policy-files.ts';
import { createPolicyResolver } from '../resolver.ts';

const door = (await import(new URL('../../sandbox/index.ts', import.meta.url).href)) as Record<
  string,
  unknown
>;
const createToolRunner = door['createToolRunner'] as
  ((options?: Record<string, unknown>) => ToolRunner) | undefined;

describe.skipIf(typeof createToolRunner !== 'function')(
  'Local Pass over the isolated-vm runner',
  async () => {
    const runner = createToolRunner?.() as ToolRunner;
    const resolver = createPolicyResolver(await loadSandboxPolicies());
    const deps = (lookup: LocalPassDeps['lookup'] = () => undefined): LocalPassDeps => ({
      runner,
      lookup,
      policyFor: resolver.policyFor,
    });
    afterAll(async () => {
      await runner.close();
    });

    it('every publishable bundled spec passes its Local Pass in a real isolate', async () => {
      const catalog = await loadBundledCatalog({ verify: deps() });
      const published = catalog.entries.filter((e) => !e.spec.draft);
      expect(published.length).toBeGreaterThan(5);
      expect(
        published
          .filter((e) => !e.publishable)
          .map((e) => `${e.spec.name}: ${e.localPassError?.message ?? ''}`),
      ).toEqual([]);
    });

    it('a blocked-network tool has no fetch, and the failure is LOCAL_PASS_FAILED', async () => {
      const spec = parseSpec({
        name: 'netless',
        code: 'return await fetch("https://example.com");',
        codeType: 'Javascript',
      });
      if (!spec.ok) throw new Error('fixture');
      const outcome = await runLocalPass(spec.value, deps());
      expect(outcome.ok ? 'passed' : outcome.error.code).toBe('LOCAL_PASS_FAILED');
    });

    it('a pass persists draft: false; a failure leaves the file untouched; secrets stay masked', async () => {
      const dir = await mkdtemp(join(tmpdir(), 'portcullis-isolate-pass-'));
      try {
        const good = join(dir, 'good.json');
        await writeFile(
          good,
          JSON.stringify({ name: 'good', code: 'return { n: 1 + 1 };', codeType: 'Javascript', draft: true }),
        );
        const passed = await publishSpecFile(good, deps());
        expect(passed.ok && passed.value).toEqual({ n: 2 });
        expect(JSON.parse(await readFile(good, 'utf8')).draft).toBe(false);

        const bad = join(dir, 'bad.json');
        const body = JSON.stringify({
          name: 'bad',
          code: 'console.log(token); throw new Error("leak " + token);',
          codeType: 'Javascript',
          staticVariables: [{ token: '${API_TOKEN}' }],
        });
        await writeFile(bad, body);
        const failed = await publishSpecFile(
          bad,
          deps((name) => (name === 'API_TOKEN' ? 'sk-isolate-4242' : undefined)),
        );
        expect(failed.ok).toBe(false);
        expect(JSON.stringify(failed)).not.toContain('sk-isolate-4242');
        expect(await readFile(bad, 'utf8')).toBe(body);
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    });
  },
);
