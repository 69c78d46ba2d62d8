/**
 * The admin API's risk previews read hostile bodies: nested arrays where strings belong, objects as header values.
 * Each is a 400 with a stable code and a message naming the field, never a 500 or a stack trace.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGateway, type RunningGateway } from '../helpers/gateway-harness.ts';

const DEPTH = 20_000;
const DEEP_ARRAY = `${'['.repeat(DEPTH)}"x"${']'.repeat(DEPTH)}`;
const INTERNALS = /call stack|RangeError|TypeError|at [\w.]+ \(|node:internal/;

let gateway: RunningGateway;

beforeAll(async () => {
  gateway = await startGateway({ upstreams: {} });
}, 120_000);
afterAll(async () => gateway?.close());

async function preview(body: string): Promise<{ status: number; text: string }> {
  const response = await fetch(gateway.url.replace(/\/mcp$/, '/admin/api/risk/server'), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body,
  });
  return { status: response.status, text: await response.text() };
}

describe('risk preview of a server from a hostile body', () => {
  it.each([
    [
      'a deeply nested array among the stdio args',
      `{"transport":"stdio","command":"x","args":[${DEEP_ARRAY}]}`,
      'args',
    ],
    ['an object among the stdio args', '{"transport":"stdio","command":"x","args":[{"a":1}]}', 'args'],
    ['args that are not a list', '{"transport":"stdio","command":"x","args":"-v"}', 'args'],
    [
      'a nested array as a header value',
      `{"transport":"http","url":"http://127.0.0.1:9/","headers":{"x":${DEEP_ARRAY}}}`,
      'headers',
    ],
    [
      'headers that are a list',
      '{"transport":"http","url":"http://127.0.0.1:9/","headers":["a"]}',
      'headers',
    ],
  ])('%s is refused with 400 naming the field', async (_name, body, field) => {
    const { status, text } = await preview(body);
    expect(status).toBe(400);
    const error = (JSON.parse(text) as { error: { code: string; message: string } }).error;
    expect(error.code).toBe('INVALID_INPUT');
    expect(error.message).toContain(`"${field}"`);
    expect(text).not.toMatch(INTERNALS);
  });

  it('still scores a well-formed preview', async () => {
    const { status, text } = await preview(
      '{"transport":"stdio","command":"npx","args":["-y","@modelcontextprotocol/server-memory"]}',
    );
    expect(status).toBe(200);
    expect(JSON.parse(text)).toHaveProperty('risk');
  });
});
