/**
 * Issue 5, "it must show" 1 (modern era): the sealed requestState of an approval round is bound to the exact
 * call, single use and expiring. Tampered, replayed, expired and argument-swapped states are refused, and
 * nothing is written.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, StreamableHTTPClientTransport, type CallToolResult } from '@modelcontextprotocol/client';
import { startGateway, tempDir, UPSTREAMS, type RunningGateway } from '../helpers/gateway-harness.ts';

const files = tempDir('portcullis-sealed-');
let gateway: RunningGateway;
let client: Client;

beforeAll(async () => {
  gateway = await startGateway({
    upstreams: {
      files: { ...UPSTREAMS.filesystem(files), tools: { overrides: { write_file: { hitl: 'REQUIRED' } } } },
    },
    approval: { elicitationTimeout: '2s' },
  });
  // Manual multi-round-trip mode: the test sees input_required and builds each retry itself.
  client = new Client(
    { name: 'manual-modern', version: '1.0.0' },
    {
      capabilities: { elicitation: { form: {} } },
      versionNegotiation: { mode: { pin: '2026-07-28' } },
      inputRequired: { autoFulfill: false },
    },
  );
  await client.connect(new StreamableHTTPClientTransport(new URL(gateway.url)));
}, 120_000);
afterAll(async () => {
  await client?.close();
  await gateway?.close();
});

interface InputRequired {
  resultType: 'input_required';
  inputRequests: Record<string, { method: string; params: { message: string } }>;
  requestState: string;
}

const args = (name: string) => ({ path: path.join(files, `${name}.txt`), content: 'sealed' });

async function firstRound(name: string): Promise<InputRequired> {
  const result = (await client.callTool(
    { name: 'files_write_file', arguments: args(name) },
    { allowInputRequired: true },
  )) as unknown as InputRequired;
  expect(result.resultType).toBe('input_required');
  expect(result.inputRequests.approval?.method).toBe('elicitation/create');
  expect(result.inputRequests.approval?.params.message).toContain('files_write_file');
  return result;
}

function retry(argsOf: Record<string, unknown>, requestState: string): Promise<CallToolResult> {
  return client.callTool(
    {
      name: 'files_write_file',
      arguments: argsOf,
      inputResponses: { approval: { action: 'accept', content: {} } },
      requestState,
    } as Parameters<Client['callTool']>[0],
    { allowInputRequired: true },
  ) as Promise<CallToolResult>;
}

const denied = (result: CallToolResult) => {
  expect(result.isError).toBe(true);
  expect(result.content.map((c) => ('text' in c ? c.text : '')).join('')).toMatch(
    /^Tool execution was denied:/,
  );
};

describe('sealed approval state (modern era)', () => {
  it('accepts the genuine retry once', async () => {
    const round = await firstRound('genuine');
    const result = await retry(args('genuine'), round.requestState);
    expect(result.isError).toBeFalsy();
    expect(existsSync(args('genuine').path)).toBe(true);
  });

  it('refuses a tampered state', async () => {
    const round = await firstRound('tampered');
    const state = round.requestState;
    const flipped = state.slice(0, -3) + (state.at(-3) === 'A' ? 'B' : 'A') + state.slice(-2);
    denied(await retry(args('tampered'), flipped));
    expect(existsSync(args('tampered').path)).toBe(false);
  });

  it('refuses a replayed state', async () => {
    const round = await firstRound('replayed');
    expect((await retry(args('replayed'), round.requestState)).isError).toBeFalsy();
    const again = await retry(
      { ...args('replayed'), path: path.join(files, 'replayed-again.txt') },
      round.requestState,
    );
    denied(again);
    denied(await retry(args('replayed'), round.requestState));
    expect(existsSync(path.join(files, 'replayed-again.txt'))).toBe(false);
  });

  it('refuses a state bound to other arguments', async () => {
    const round = await firstRound('original');
    denied(await retry(args('swapped'), round.requestState));
    expect(existsSync(args('swapped').path)).toBe(false);
    expect(existsSync(args('original').path)).toBe(false);
  });

  it('refuses an expired state', async () => {
    const round = await firstRound('expired');
    await new Promise((resolve) => setTimeout(resolve, 2_300));
    denied(await retry(args('expired'), round.requestState));
    expect(existsSync(args('expired').path)).toBe(false);
  });
});
