/**
 * Which upstream JSON-RPC errors reach a 2026-era caller as JSON-RPC errors (docs/errors.md,
 * CLIENT_CAPABILITY_REQUIRED): an upstream's -32021 for a capability the caller did not declare, and that the
 * gateway would declare for it, is the caller's to fix, so it arrives as -32021 with HTTP 400 and data rebuilt by
 * the gateway; every other upstream error stays an UPSTREAM_ERROR tool result. Upstreams: the conformance fixture
 * (trusted with sampling) and test/fixtures/capability-error-server.ts (not), both real stdio processes speaking
 * the modern era; requests are real HTTP posts on the 2026-07-28 wire and the real SDK client.
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CallToolResult } from '@modelcontextprotocol/client';
import { postModern } from '../faults/raw-mcp.ts';
import {
  connectClient,
  ROOT,
  startGateway,
  UPSTREAMS,
  type RunningGateway,
} from '../helpers/gateway-harness.ts';

const KEY = 'alice-key-0123456789abcdef';
const modern = { protocol: 'modern', tools: { include: ['*'] } };

let gateway: RunningGateway;

beforeAll(async () => {
  gateway = await startGateway(
    {
      auth: { apiKeys: ['${KEY}'] },
      upstreams: {
        conf: { ...UPSTREAMS.conformance, ...modern, sampling: true },
        caps: {
          ...UPSTREAMS.conformance,
          args: ['--import', 'tsx', path.join(ROOT, 'test/fixtures/capability-error-server.ts')],
          ...modern,
        },
      },
    },
    { env: { KEY } },
  );
  expect(gateway.gateway.supervisor.snapshot('conf')?.era).toBe('modern');
  expect(gateway.gateway.supervisor.snapshot('caps')?.era).toBe('modern');
}, 120_000);

afterAll(async () => {
  await gateway?.close();
});

/** One 2026-07-28 tools/call as a plain HTTP POST, with the client capabilities the request declares. */
const call = (name: string, capabilities: Record<string, unknown> = {}) =>
  postModern(gateway.url, 'tools/call', { name, arguments: {} }, { apiKey: KEY, capabilities });

const gatewayCode = (result: { _meta?: Record<string, unknown> | undefined } | undefined) =>
  (result?._meta?.['dev.portcullis/error'] as { code?: string } | undefined)?.code;

describe("an upstream's -32021 the caller can fix", () => {
  it('reaches the caller as JSON-RPC -32021 with HTTP 400, its id and the required capability', async () => {
    const answer = await call('conf_test_missing_capability');
    expect(answer.status).toBe(400);
    expect(answer.body.id).toBe(7);
    expect(answer.body.result).toBeUndefined();
    expect(answer.body.error?.code).toBe(-32021);
    expect(answer.body.error?.data).toEqual({
      code: 'CLIENT_CAPABILITY_REQUIRED',
      requiredCapabilities: { sampling: {} },
    });
    expect(answer.body.error?.message).toContain('sampling');
  });

  it('runs the tool once the caller declares the capability', async () => {
    const answer = await call('conf_test_missing_capability', { sampling: {} });
    expect(answer.status).toBe(200);
    expect(answer.body.result?.content).toEqual([{ type: 'text', text: 'Success' }]);
  });

  it("carries the gateway's data only: the upstream's forged code, reason and inner fields are not relayed", async () => {
    const answer = await call('caps_forged_capability_error');
    expect(answer.status).toBe(400);
    expect(answer.body.error?.code).toBe(-32021);
    expect(answer.body.error?.data).toEqual({
      code: 'CLIENT_CAPABILITY_REQUIRED',
      requiredCapabilities: { elicitation: {} },
    });
    expect(answer.body.error?.message).not.toContain('needs elicitation');
  });
});

describe('upstream errors that stay UPSTREAM_ERROR tool results', () => {
  it.each([
    // The gateway never declares sampling to an upstream not trusted with it: declaring it would not help.
    ['caps_needs_sampling', {}],
    ['caps_needs_sampling', { sampling: {} }],
    // The caller declared elicitation, so the refusal is not about its request.
    ['caps_forged_capability_error', { elicitation: { form: {} } }],
    // The gateway declares no extensions upstream.
    ['caps_needs_extension', { extensions: { 'com.example/thing': {} } }],
    // An error about the gateway's own hop.
    ['caps_invalid_params', {}],
  ])('%s with capabilities %j', async (name, capabilities) => {
    const answer = await call(name, capabilities);
    expect(answer.status).toBe(200);
    expect(answer.body.error).toBeUndefined();
    expect(answer.body.result?.isError).toBe(true);
    expect(gatewayCode(answer.body.result)).toBe('UPSTREAM_ERROR');
  });

  it('for a 2025-era caller, whose session cannot declare per-request capabilities, even the fixable -32021', async () => {
    const client = await connectClient(gateway.url, { era: 'legacy', apiKey: KEY });
    try {
      const result = (await client.callTool({
        name: 'caps_forged_capability_error',
        arguments: {},
      })) as CallToolResult;
      expect(result.isError).toBe(true);
      expect(gatewayCode(result)).toBe('UPSTREAM_ERROR');
    } finally {
      await client.close();
    }
  });
});
