/**
 * SEP-2243 `Mcp-Param-*` headers at the HTTP door (docs/security.md, "Mcp-Param headers"): a 2026-era tools/call
 * of a tool whose inputSchema marks an argument with `x-mcp-header` must carry that argument as the named header,
 * literally or as canonical Base64, equal to the body's value; otherwise HTTP 400, JSON-RPC -32020,
 * `data.code` HEADER_MISMATCH, and nothing reaches the upstream. The upstream is the conformance fixture as a real
 * stdio process speaking the modern era; the requests are real HTTP posts on the 2026-07-28 wire.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postModern } from '../faults/raw-mcp.ts';
import { startGateway, UPSTREAMS, type RunningGateway } from '../helpers/gateway-harness.ts';

const KEY = 'alice-key-0123456789abcdef';
const TOOL = 'conf_test_custom_header';
const b64 = (text: string) => `=?base64?${Buffer.from(text, 'utf8').toString('base64')}?=`;

let gateway: RunningGateway;

beforeAll(async () => {
  gateway = await startGateway(
    {
      auth: { apiKeys: ['${KEY}'] },
      upstreams: { conf: { ...UPSTREAMS.conformance, protocol: 'modern', tools: { include: ['*'] } } },
    },
    { env: { KEY } },
  );
}, 120_000);

afterAll(async () => {
  await gateway?.close();
});

const post = (method: string, params: Record<string, unknown>, headers: Record<string, string> = {}) =>
  postModern(gateway.url, method, params, { apiKey: KEY, headers });

const callRegion = (region: unknown, headers: Record<string, string>) =>
  post('tools/call', { name: TOOL, arguments: { region } }, headers);

describe('Mcp-Param-* headers of an exposed tool', () => {
  it("the exposed tool's inputSchema carries the upstream's x-mcp-header annotation", async () => {
    const answer = await post('tools/list', {});
    const tools = answer.body.result?.['tools'] as { name: string; inputSchema: { properties?: unknown } }[];
    const tool = tools.find((t) => t.name === TOOL);
    expect(tool?.inputSchema.properties).toMatchObject({ region: { 'x-mcp-header': 'Region' } });
  });

  it.each([
    ['a literal value', 'eu-west', 'eu-west'],
    ['canonical Base64 of UTF-8 text', 'Zürich', b64('Zürich')],
    ['Base64-looking text without the sentinel, taken literally', 'SGVsbG8=', 'SGVsbG8='],
    ['a sentinel without its ?= suffix, taken literally', '=?base64?SGVsbG8=', '=?base64?SGVsbG8='],
  ])('accepts %s', async (_what, region, header) => {
    const answer = await callRegion(region, { 'Mcp-Param-Region': header });
    expect(answer.status).toBe(200);
    expect(answer.body.result?.content).toEqual([{ type: 'text', text: `Region: ${region}` }]);
  });

  it('matches the header name case-insensitively', async () => {
    const answer = await callRegion('eu-west', { 'mcp-param-region': 'eu-west' });
    expect(answer.status).toBe(200);
  });

  it.each([
    ['a missing header', {}, 'header is missing'],
    ['Base64 without its padding', { 'Mcp-Param-Region': '=?base64?SGVsbG8?=' }, 'not canonical Base64'],
    [
      'characters outside the Base64 alphabet',
      { 'Mcp-Param-Region': '=?base64?SGVs!!!bG8=?=' },
      'not canonical',
    ],
    ['non-canonical Base64 (stray bits)', { 'Mcp-Param-Region': '=?base64?SGVsbG9=?=' }, 'not canonical'],
    ['Base64 that is not UTF-8', { 'Mcp-Param-Region': '=?base64?/w==?=' }, 'not canonical Base64'],
    ['a value other than the body', { 'Mcp-Param-Region': 'us-east' }, 'does not match argument region'],
    ['the Base64 of another value', { 'Mcp-Param-Region': b64('Hallo') }, 'does not match'],
    [
      'more than 32 Mcp-Param-* headers',
      Object.fromEntries(Array.from({ length: 33 }, (_, i) => [`Mcp-Param-X${i}`, 'x'])),
      'more than 32',
    ],
    ['a header value over 8192 characters', { 'Mcp-Param-Region': 'x'.repeat(8193) }, 'longer than 8192'],
  ])('refuses %s with HTTP 400 and -32020 (HEADER_MISMATCH)', async (_what, headers, reason) => {
    const answer = await callRegion('Hello', headers);
    expect(answer.status).toBe(400);
    expect(answer.body.id).toBe(7);
    expect(answer.body.error?.code).toBe(-32020);
    expect(answer.body.error?.data).toEqual({ code: 'HEADER_MISMATCH' });
    expect(answer.body.error?.message).toContain(reason);
  });

  it('expects no header for an argument the body leaves out (the tool then refuses its arguments)', async () => {
    const answer = await post('tools/call', { name: TOOL, arguments: {} });
    expect(answer.status).toBe(200);
    expect(answer.body.error).toBeUndefined();
    expect(answer.body.result?.isError).toBe(true);
    expect(answer.body.result?._meta?.['dev.portcullis/error']).toMatchObject({ code: 'INVALID_ARGUMENTS' });
  });

  it('leaves a tool the caller is not exposed to to the unknown-tool answer', async () => {
    const answer = await post('tools/call', { name: 'conf_no_such_tool', arguments: { region: 'x' } });
    expect(answer.body.error?.data).toMatchObject({ code: 'UNKNOWN_TOOL' });
  });
});
