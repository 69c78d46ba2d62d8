// The operator's view of the sandbox quarantine through the real gateway's admin API (lifting a real
// quarantine is covered by catastrophic-oom.test.ts, which needs a child process).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGateway, type RunningGateway } from '../helpers/gateway-harness.ts';

let gateway: RunningGateway;
beforeAll(async () => {
  gateway = await startGateway({ upstreams: {} });
}, 60_000);
afterAll(async () => gateway?.close());

const admin = (route: string) => gateway.url.replace(/\/mcp$/, `/admin/api${route}`);

describe('sandbox quarantine in the admin API', () => {
  it('lists no quarantined tools on a fresh gateway', async () => {
    const response = await fetch(admin('/sandbox/quarantine'));
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ tools: [] });
  });

  it('answers 404 when the tool to lift is not quarantined', async () => {
    const response = await fetch(admin('/tools/no-such-tool/unquarantine'), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ error: { code: 'NOT_FOUND' } });
  });
});
