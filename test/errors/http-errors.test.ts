/**
 * Issue 14, defect 10: HTTP failures never print a stack. A client that aborts mid-body is one debug line; a
 * route that throws answers 500 JSON with a stable code and logs one masked warn line; an unknown path is 404 JSON.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { request } from 'node:http';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { writeConfigFile } from '../helpers/serve-support.ts';
import { freePort, ROOT, startGateway, tempDir, waitFor } from '../helpers/gateway-harness.ts';
import { CLI, STACK_LINE } from './run-cli.ts';

/** POSTs the first part of a body that declares 1000 bytes, then drops the connection. */
function abortMidBody(port: number): Promise<void> {
  return new Promise((resolve) => {
    const req = request({
      host: '127.0.0.1',
      port,
      path: '/mcp',
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'content-length': '1000',
      },
    });
    req.on('error', () => resolve());
    req.on('close', () => resolve());
    req.write('{"jsonrpc":"2.0","id":1,"method":"initialize","params":{');
    setTimeout(() => req.destroy(), 200);
  });
}

describe('a client aborting mid-body against portcullis serve', () => {
  let child: ChildProcess | undefined;
  afterAll(() => {
    if (child && child.exitCode === null) child.kill('SIGKILL');
  });

  it('logs one debug line and no stack trace, and keeps serving', async () => {
    const dir = tempDir('portcullis-http-errors-');
    const port = await freePort();
    const configFile = writeConfigFile(dir, {
      listen: { host: '127.0.0.1', port },
      store: { path: path.join(dir, 'portcullis.db') },
      telemetry: { logLevel: 'debug' },
      upstreams: {},
    });
    let stderr = '';
    const started = spawn(process.execPath, [...CLI, 'serve', '--config', configFile], {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child = started;
    started.stdout?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    started.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    await waitFor(() => stderr.includes('gateway.listening'), 50_000, `gateway.listening (${stderr})`);

    for (let i = 0; i < 3; i += 1) await abortMidBody(port);
    const health = await fetch(`http://127.0.0.1:${port}/healthz`);
    expect(health.status).toBe(200);
    await waitFor(() => stderr.includes('http.client_aborted'), 10_000, `http.client_aborted (${stderr})`);
    const exited = new Promise((resolve) => started.once('close', resolve));
    started.kill('SIGTERM');
    await exited;

    expect(stderr).not.toMatch(STACK_LINE);
    expect(stderr).not.toContain('Error: aborted');
    const aborted = stderr
      .split('\n')
      .filter((line) => line.includes('http.client_aborted'))
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(aborted.length).toBeGreaterThanOrEqual(1);
    expect(aborted.length).toBeLessThanOrEqual(3);
    expect(aborted[0]).toMatchObject({ level: 'debug', method: 'POST', path: '/mcp' });
  });
});

describe('errors inside the gateway app', () => {
  const secret = 'sk-http-errors-98765';
  let gateway: Awaited<ReturnType<typeof startGateway>>;
  afterAll(async () => gateway?.close());

  it('answers a route that throws with 500 JSON, no stack, and one masked warn line', async () => {
    gateway = await startGateway(
      { auth: { apiKeys: ['${HTTP_ERRORS_KEY}'] }, upstreams: {} },
      { env: { HTTP_ERRORS_KEY: secret } },
    );
    gateway.gateway.app.get('/boom', () => {
      throw new Error(`kaboom with ${secret}\n    at the place it broke`);
    });
    const response = await fetch(`http://127.0.0.1:${gateway.port}/boom`);
    const text = await response.text();
    expect(response.status).toBe(500);
    expect(response.headers.get('content-type')).toContain('application/json');
    expect(JSON.parse(text)).toMatchObject({ error: { data: { code: 'INTERNAL' } } });
    expect(text).not.toMatch(STACK_LINE);
    expect(text).not.toContain('kaboom');
    const lines = gateway.logs.filter((line) => line.includes('http.internal_error'));
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0] as string)).toMatchObject({
      level: 'warn',
      event: 'http.internal_error',
      method: 'GET',
      path: '/boom',
      message: 'kaboom with ***',
    });
    expect(gateway.logs.join('')).not.toContain(secret);
  });

  it('answers an unknown path with 404 JSON', async () => {
    const response = await fetch(`http://127.0.0.1:${gateway.port}/no-such-path`);
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ error: { code: 'NOT_FOUND' } });
  });
});
