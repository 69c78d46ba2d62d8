import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFunctionRunner } from '../tool-specs/test/function-runner.ts';
import { runSpecCommand, type SpecCliIo } from './spec.ts';

let dir: string;
let out: string;
let err: string;
let io: SpecCliIo;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'portcullis-cli-spec-'));
  out = '';
  err = '';
  io = {
    stdout: { write: (text: string) => (out += text) },
    stderr: { write: (text: string) => (err += text) },
    lookup: (name) => (name === 'API_TOKEN' ? 'tok-secret-9876' : undefined),
    cwd: dir,
    runner: createFunctionRunner(),
    now: () => 1_700_000_000_000,
  };
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const write = async (name: string, doc: unknown) => {
  await writeFile(join(dir, name), typeof doc === 'string' ? doc : JSON.stringify(doc, null, 2));
  return name;
};

describe('portcullis spec', () => {
  it('new writes a draft skeleton that validates, tests and publishes', async () => {
    expect(await runSpecCommand(['new', 'greeter'], io)).toBe(0);
    const file = join(dir, 'greeter.json');
    const doc = JSON.parse(await readFile(file, 'utf8')) as Record<string, unknown>;
    expect(doc).toMatchObject({ name: 'greeter', draft: true, codeType: 'Javascript' });

    expect(await runSpecCommand(['validate', 'greeter.json'], io)).toBe(0);
    expect(out).toContain('valid (DRAFT; risk L0)');

    expect(await runSpecCommand(['test', 'greeter.json'], io)).toBe(0);
    expect(out).toContain('"echo": "hello"');
    expect(JSON.parse(await readFile(file, 'utf8')).draft).toBe(true);

    expect(await runSpecCommand(['publish', 'greeter.json'], io)).toBe(0);
    expect(JSON.parse(await readFile(file, 'utf8')).draft).toBe(false);
    expect(await runSpecCommand(['new', 'greeter'], io)).toBe(1);
    expect(err).toContain('already exists');
  });

  it('validate on a broken spec prints each code and pointer and exits 1', async () => {
    await write('bad.json', {
      name: 'bad',
      code: 'return 1;',
      codeType: 'Javascript',
      params: [{ name: 'q', type: 'STRING', required: true }],
      tags: ['a', 'b', 'c'],
    });
    expect(await runSpecCommand(['validate', 'bad.json'], io)).toBe(1);
    expect(err).toContain('SPEC_INVARIANT /params/0/testValue');
    expect(err).toContain('SPEC_INVARIANT /tags');
  });

  it('validate reports a resolver rejection with its pointer', async () => {
    await write('overlap.json', {
      name: 'overlap',
      code: 'return 1;',
      codeType: 'Javascript',
      sandboxOverrides: { addAllowClasses: ['java.lang.Runtime'] },
    });
    expect(await runSpecCommand(['validate', 'overlap.json'], io)).toBe(1);
    expect(err).toContain('RESOLVER_REJECT /sandboxOverrides/addAllowClasses/0');
  });

  it('test on a failing tool prints LOCAL_PASS_FAILED, masks secrets and leaves the file alone', async () => {
    const body = JSON.stringify({
      name: 'leaky',
      code: 'throw new Error("token=" + token);',
      codeType: 'Javascript',
      staticVariables: [{ token: '${API_TOKEN}' }],
    });
    await write('leaky.json', body);
    expect(await runSpecCommand(['publish', 'leaky.json'], io)).toBe(1);
    expect(err).toContain('LOCAL_PASS_FAILED /code');
    expect(err).toContain('token=***');
    expect(err + out).not.toContain('tok-secret-9876');
    expect(await readFile(join(dir, 'leaky.json'), 'utf8')).toBe(body);
  });

  it('risk prints the toolSafety block and the level with reasons', async () => {
    await write('net.json', {
      name: 'net',
      code: 'return 1;',
      codeType: 'Javascript',
      sandboxOverrides: { networkMode: 'allowlist', hostsAllow: ['api.upbit.com'] },
    });
    expect(await runSpecCommand(['risk', 'net.json'], io)).toBe(0);
    const block = out.slice(out.indexOf('{'), out.indexOf('\nRisk Level'));
    expect(JSON.parse(block)).toMatchObject({
      capabilities: { network: { mode: 'allowlist', hosts: ['api.upbit.com'] } },
    });
    expect(out).toContain('Risk Level: L3');
    expect(out).toMatch(/- L3: network allowlist .*api\.upbit\.com/);
    expect(out).toContain('humanInTheLoop: REQUIRED (default)');
  });

  it('--profile picks a bundled sandbox profile', async () => {
    await write('p.json', { name: 'p', code: 'return 1;', codeType: 'Javascript' });
    expect(await runSpecCommand(['risk', 'p.json', '--profile', 'workspace-rw'], io)).toBe(0);
    expect(out).toContain('Risk Level: L4');
    expect(await runSpecCommand(['risk', 'p.json', '--profile', 'nope'], io)).toBe(1);
    expect(err).toContain('RESOLVER_REJECT');
  });

  it.each([
    [[]],
    [['frobnicate', 'x.json']],
    [['validate']],
    [['risk', 'a', 'b']],
    [['validate', 'x', '--bogus']],
  ])('usage errors exit 2: %j', async (args) => {
    expect(await runSpecCommand(args, io)).toBe(2);
    expect(err).toMatch(/usage|unknown option|unexpected argument/);
  });

  it('a missing file is a SPEC_PARSE problem, exit 1', async () => {
    expect(await runSpecCommand(['validate', 'missing.json'], io)).toBe(1);
    expect(err).toContain('SPEC_PARSE /');
  });
});
