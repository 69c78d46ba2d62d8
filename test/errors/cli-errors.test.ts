/**
 * Issue 14, defect 10: what a person sees when the CLI fails. The real `portcullis` command is spawned; every
 * failure must be one line that says what to do, with the documented exit code and no stack trace.
 */
import { createServer, type Server } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeConfigFile } from '../helpers/serve-support.ts';
import { tempDir } from '../helpers/gateway-harness.ts';
import { runCli, STACK_LINE } from './run-cli.ts';

const dir = tempDir('portcullis-cli-errors-');
const dbPath = path.join(dir, 'portcullis.db');
const configFile = writeConfigFile(dir, { store: { path: dbPath }, upstreams: {} });
let holder: Server;
let heldPort: number;

beforeAll(async () => {
  holder = createServer();
  await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
  heldPort = (holder.address() as { port: number }).port;
});
afterAll(async () => {
  await new Promise((resolve) => holder.close(resolve));
});

describe('portcullis serve', () => {
  it('names a port that is already taken in one line and exits 1', async () => {
    const ran = await runCli(['serve', '--config', configFile, '--port', String(heldPort)]);
    expect(ran.stderr).not.toMatch(STACK_LINE);
    expect(ran.stderr).toContain(
      `port ${heldPort} on 127.0.0.1 is already in use; stop the other process or set listen.port / --port`,
    );
    expect(ran.stderr).toContain('LISTEN_FAILED');
    expect(ran.code).toBe(1);
  });

  it.each([['abc'], ['70000'], ['-1'], ['']])(
    'answers --port %j with a usage error, exit 2',
    async (port) => {
      const ran = await runCli(['serve', '--config', configFile, `--port=${port}`]);
      expect(ran.stderr).not.toMatch(STACK_LINE);
      expect(ran.stderr).toContain(`--port needs a whole number from 0 to 65535, got "${port}"`);
      expect(ran.code).toBe(2);
    },
  );

  it('answers an unknown flag with a usage error, exit 2', async () => {
    const ran = await runCli(['serve', '--config', configFile, '--bogus']);
    expect(ran.stderr).not.toMatch(STACK_LINE);
    expect(ran.stderr).toMatch(/Unknown option '--bogus'/);
    expect(ran.code).toBe(2);
  });

  it('answers scan --timeout abc with a usage error, exit 2', async () => {
    const ran = await runCli(['scan', '--config', configFile, '--timeout', 'abc']);
    expect(ran.stderr).not.toMatch(STACK_LINE);
    expect(ran.stderr).toContain('--timeout needs a positive number of seconds, got "abc"');
    expect(ran.code).toBe(2);
  });
});
