/**
 * Issue 5, "it must show" 3 (secrets): a secret handed to a stdio upstream through its env and a token handed to
 * an HTTP upstream through a header never reach the database file (main, -wal and -shm bytes), the logs or the
 * spans, even after calls whose arguments and results carry them (server-everything's `get-env` returns its own
 * environment; `echo` repeats its message). Argument and result capture on spans is on, so spans see them too.
 */
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CallToolResult } from '@modelcontextprotocol/client';
import { InMemorySpanExporter } from '@opentelemetry/sdk-trace-base';
import {
  connectClient,
  startEverythingHttp,
  startGateway,
  tempDir,
  UPSTREAMS,
  type RunningGateway,
} from '../helpers/gateway-harness.ts';
import {
  auditRecords,
  databaseBytes,
  filesContaining,
  resultText,
  spanDump,
  startHeaderRecorder,
} from '../helpers/serve-support.ts';

const SECRET = `e2e-env-secret-${randomUUID()}`;
const TOKEN = `e2e-header-token-${randomUUID()}`;
const dir = tempDir('portcullis-e2e-secrets-');
const dbPath = path.join(dir, 'portcullis.db');
const spans = new InMemorySpanExporter();
let gateway: RunningGateway;
let everythingHttp: Awaited<ReturnType<typeof startEverythingHttp>>;
let recorder: Awaited<ReturnType<typeof startHeaderRecorder>>;

beforeAll(async () => {
  everythingHttp = await startEverythingHttp();
  recorder = await startHeaderRecorder(everythingHttp.url);
  gateway = await startGateway(
    {
      store: { path: dbPath },
      upstreams: {
        envy: { ...UPSTREAMS.everythingStdio, env: { SOME_KEY: '${TEST_SECRET}' } },
        httpy: {
          transport: 'http',
          url: recorder.url,
          headers: { Authorization: 'Bearer ${TEST_TOKEN}' },
        },
      },
      telemetry: { captureArguments: true, logLevel: 'debug' },
    },
    { env: { TEST_SECRET: SECRET, TEST_TOKEN: TOKEN }, deps: { telemetry: { spanExporter: spans } } },
  );
}, 120_000);
afterAll(async () => {
  await gateway?.close();
  await recorder?.close();
  await everythingHttp?.stop();
});

const leaks = (haystack: string) => [SECRET, TOKEN].filter((secret) => haystack.includes(secret));
const spanText = async () => {
  await new Promise((resolve) => setImmediate(resolve)); // request spans end just after the answer
  return JSON.stringify(spans.getFinishedSpans().map(spanDump));
};

describe.each(['legacy', 'modern'] as const)('calls carrying secrets from a %s client', (era) => {
  it('get-env shows the upstream env with the secret masked', async () => {
    const client = await connectClient(gateway.url, { era });
    const result = (await client.callTool({ name: 'envy_get-env', arguments: {} })) as CallToolResult;
    await client.close();
    expect(result.isError).toBeFalsy();
    const env = JSON.parse(resultText(result)) as Record<string, string>;
    // The upstream did receive the variable (it is listed) but its value left the gateway masked.
    expect(env.SOME_KEY).toBe('***');
    expect(leaks(resultText(result))).toEqual([]);
  });

  it.each([
    ['envy_echo', () => `env secret ${SECRET} end`],
    ['httpy_echo', () => `header token ${TOKEN} end`],
    ['envy_echo', () => `${SECRET}${TOKEN}`],
  ])('%s of a message with a secret answers it masked', async (alias, message) => {
    const client = await connectClient(gateway.url, { era });
    const result = (await client.callTool({
      name: alias,
      arguments: { message: message() },
    })) as CallToolResult;
    await client.close();
    expect(result.isError).toBeFalsy();
    expect(resultText(result)).toContain('***');
    expect(leaks(JSON.stringify(result))).toEqual([]);
  });
});

describe('after the calls', () => {
  it('the upstreams were really given the secrets', async () => {
    const client = await connectClient(gateway.url, { era: 'legacy' });
    const result = (await client.callTool({ name: 'envy_get-env', arguments: {} })) as CallToolResult;
    await client.close();
    expect(Object.keys(JSON.parse(resultText(result)) as object)).toContain('SOME_KEY');
    expect(recorder.authorizations.length).toBeGreaterThan(0);
    expect(new Set(recorder.authorizations)).toEqual(new Set([`Bearer ${TOKEN}`]));
    expect(gateway.gateway.masker.mask(`a ${SECRET} b ${TOKEN}`)).toBe('a *** b ***');
  });

  it('the audit rows hold the calls with masked arguments', async () => {
    const echoes = (await auditRecords(gateway.gateway)).filter((r) => r.alias.endsWith('_echo'));
    expect(echoes.length).toBeGreaterThanOrEqual(6);
    for (const row of echoes) expect(JSON.stringify(row.arguments)).toContain('***');
  });

  it('no secret is in the logs', () => {
    const logs = gateway.logs.join('\n');
    expect(logs).toContain('mcp.tool.done');
    expect(leaks(logs)).toEqual([]);
  });

  it('no secret is in the spans, whose captured arguments and results are masked', async () => {
    const text = await spanText();
    expect(text).toContain('gen_ai.tool.call.arguments');
    expect(text).toContain('gen_ai.tool.call.result');
    expect(text).toContain('SOME_KEY');
    expect(leaks(text)).toEqual([]);
  });

  it('no secret is in the database bytes, while it is open and after it is closed', async () => {
    const open = databaseBytes(dbPath);
    expect(open.length).toBeGreaterThan(0);
    // The search is real: a name that was written is found in the same bytes.
    expect(filesContaining(open, 'envy_echo').length).toBeGreaterThan(0);
    expect(filesContaining(open, SECRET)).toEqual([]);
    expect(filesContaining(open, TOKEN)).toEqual([]);

    await gateway.close();
    const closed = databaseBytes(dbPath);
    expect(filesContaining(closed, 'httpy_echo').length).toBeGreaterThan(0);
    expect(filesContaining(closed, SECRET)).toEqual([]);
    expect(filesContaining(closed, TOKEN)).toEqual([]);
    // Spans flushed at shutdown are checked too.
    expect(leaks(await spanText())).toEqual([]);
    expect(leaks(gateway.logs.join('\n'))).toEqual([]);
  });
});
