import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { EnvLookup, ToolRunner } from '../deps.ts';
import { parseSpec } from '../document.ts';
import { publishSpecFile, runLocalPass, type LocalPassDeps } from '../local-pass.ts';
import { createPolicyResolver } from '../resolver.ts';
import type { SafeToolSpec } from '../types.ts';
import { createFunctionRunner } from './function-runner.ts';
import { policiesOf } from './fixtures.ts';

const resolver = createPolicyResolver(policiesOf());
const noEnv: EnvLookup = () => undefined;

function deps(runner: ToolRunner = createFunctionRunner(), lookup: EnvLookup = noEnv): LocalPassDeps {
  return { runner, lookup, policyFor: resolver.policyFor, now: () => 1_700_000_000_000 };
}

const echoDoc = {
  'x-acme-owner': 'team-a',
  name: 'echo',
  description: 'Echoes. Returns { text, times }.',
  params: [
    { name: 'text', type: 'STRING', required: true, testValue: 'hello' },
    { name: 'times', type: 'INTEGER', required: false, testValue: '2' },
  ],
  code: 'console.log("running", text); return { text: text.repeat(times), times };',
  codeType: 'Javascript',
  draft: true,
};

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'portcullis-spec-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function writeSpec(name: string, doc: Record<string, unknown>): Promise<string> {
  const file = join(dir, name);
  await writeFile(file, JSON.stringify(doc, null, 2) + '\n');
  return file;
}

function parsed(doc: Record<string, unknown>): SafeToolSpec {
  const result = parseSpec(doc);
  if (!result.ok) throw new Error(result.errors.map((e) => e.message).join('; '));
  return result.value;
}

describe('runLocalPass', () => {
  it('runs the code with typed testValues under the same policy policyFor gives', async () => {
    const runner = createFunctionRunner();
    const spec = parsed({
      ...echoDoc,
      sandboxOverrides: { networkMode: 'allowlist', hostsAllow: ['api.example'] },
    });
    const outcome = await runLocalPass(spec, deps(runner));
    expect(outcome.ok).toBe(true);
    if (!outcome.ok) return;
    expect(outcome.value).toEqual({ text: 'hellohello', times: 2 });
    expect(outcome.console).toEqual(['running hello']);
    expect(outcome.spec.draft).toBe(false);
    expect(outcome.persisted).toBe(false);
    expect(outcome.risk.level).toBe('L3');
    expect(runner.requests).toHaveLength(1);
    expect(runner.requests[0]?.policy).toEqual(resolver.policyFor(spec).policy);
    expect(runner.requests[0]?.args).toEqual({ text: 'hello', times: 2 });
    expect(outcome.toolSafety.capabilities.network).toEqual({ mode: 'allowlist', hosts: ['api.example'] });
  });

  it('persists draft: false atomically and keeps every other field', async () => {
    const file = await writeSpec('echo.json', echoDoc);
    const outcome = await publishSpecFile(file, deps());
    expect(outcome.ok).toBe(true);
    const written = JSON.parse(await readFile(file, 'utf8')) as Record<string, unknown>;
    expect(written['draft']).toBe(false);
    expect(written['x-acme-owner']).toBe('team-a');
    expect(Object.keys(written)[0]).toBe('x-acme-owner');
    expect(written['code']).toBe(echoDoc.code);
    expect(written['params']).toEqual(echoDoc.params);
    expect(written['updateTimestamp']).toBe(1_700_000_000_000);
    expect(written['createTimestamp']).toBe(1_700_000_000_000);
    expect((written['toolSafety'] as { runtime: { id: string } }).runtime.id).toBe(
      'portcullis/isolated-vm-js',
    );
    expect(await readdir(dir)).toEqual(['echo.json']);
    const reparsed = parseSpec(JSON.stringify(written));
    expect(reparsed.ok && reparsed.value.draft).toBe(false);
  });

  it('a failing pass leaves the file byte-identical and returns LOCAL_PASS_FAILED at /code', async () => {
    const file = await writeSpec('boom.json', {
      ...echoDoc,
      code: 'console.log("before"); throw new Error("kaput");',
    });
    const before = await readFile(file, 'utf8');
    const outcome = await publishSpecFile(file, deps());
    expect(outcome.ok).toBe(false);
    if (outcome.ok) return;
    expect(outcome.error).toMatchObject({ code: 'LOCAL_PASS_FAILED', pointer: '/code' });
    expect(outcome.error.message).toContain('kaput');
    expect(outcome.error.details?.['toolSafety']).toBeDefined();
    expect(outcome.console).toEqual(['before']);
    expect(await readFile(file, 'utf8')).toBe(before);
    expect(await readdir(dir)).toEqual(['boom.json']);
  });

  it('masks resolved secrets in the error message, console and value', async () => {
    const lookup: EnvLookup = (name) => (name === 'API_TOKEN' ? 'sk-live-123456' : undefined);
    const leaky = parsed({
      ...echoDoc,
      staticVariables: [{ token: 'Bearer ${API_TOKEN}' }],
      code: 'console.log(token); throw new Error("bad token " + token);',
    });
    const failed = await runLocalPass(leaky, deps(createFunctionRunner(), lookup));
    expect(failed.ok).toBe(false);
    if (failed.ok) return;
    expect(failed.error.message).toContain('bad token Bearer ***');
    expect(JSON.stringify(failed)).not.toContain('sk-live-123456');
    const echoing = parsed({ ...leaky, code: 'console.log(token); return { token };' });
    const passed = await runLocalPass(echoing, deps(createFunctionRunner(), lookup));
    expect(passed.ok && passed.value).toEqual({ token: 'Bearer ***' });
    expect(passed.ok && passed.console).toEqual(['Bearer ***']);
  });

  it('a missing env var fails before running, pointing at the static variable', async () => {
    const runner = createFunctionRunner();
    const spec = parsed({ ...echoDoc, staticVariables: [{ base: 'x' }, { token: '${API_TOKEN}' }] });
    const outcome = await runLocalPass(spec, deps(runner));
    expect(outcome.ok).toBe(false);
    if (outcome.ok) return;
    expect(outcome.error).toMatchObject({
      code: 'LOCAL_PASS_FAILED',
      pointer: '/staticVariables/1/token',
      reason: 'missing-requirements',
    });
    expect(runner.requests).toHaveLength(0);
  });

  it('a policy the resolver rejects fails with RESOLVER_REJECT and never runs', async () => {
    const runner = createFunctionRunner();
    const spec = parsed({ ...echoDoc, sandboxOverrides: { addAllowClasses: ['java.lang.System'] } });
    const outcome = await runLocalPass(spec, deps(runner));
    expect(outcome.ok ? 'ok' : outcome.error.code).toBe('RESOLVER_REJECT');
    expect(runner.requests).toHaveLength(0);
  });

  it('refuses to persist when the file changed while the pass ran', async () => {
    const file = await writeSpec('race.json', echoDoc);
    const spec = parsed(echoDoc);
    const changed = JSON.stringify({ ...echoDoc, code: 'return "other";' });
    const slow: ToolRunner = {
      async run(request) {
        await writeFile(file, changed);
        return createFunctionRunner().run(request);
      },
      evict: () => undefined,
      close: async () => undefined,
    };
    const outcome = await runLocalPass(spec, deps(slow), { file });
    expect(outcome.ok ? 'ok' : outcome.error.reason).toBe('file-changed');
    expect(await readFile(file, 'utf8')).toBe(changed);
  });

  it('a broken spec file fails with its parse errors', async () => {
    const file = await writeSpec('broken.json', { name: 'x', codeType: 'Javascript' });
    const outcome = await publishSpecFile(file, deps());
    expect(outcome.ok ? 'ok' : `${outcome.error.code} ${outcome.error.pointer ?? ''}`).toBe(
      'SPEC_PARSE /code',
    );
  });

  it('a runner that throws is a LOCAL_PASS_FAILED, not a crash', async () => {
    const throwing: ToolRunner = {
      run: () => Promise.reject(new Error('isolate crashed')),
      evict: () => undefined,
      close: async () => undefined,
    };
    const outcome = await runLocalPass(parsed(echoDoc), deps(throwing));
    expect(outcome.ok ? 'ok' : outcome.error.reason).toBe('runner-error');
  });
});
