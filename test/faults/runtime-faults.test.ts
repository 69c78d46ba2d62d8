/**
 * Issue 14, "it must show" 2 (part two): upstreams that connect and then misbehave: a notification flood, a
 * 20,000-tool list, a ReDoS pattern in an inputSchema, a 50 MB result. The real gateway runs as its own process
 * with a healthy server-everything (`every`) next to the misbehaving stdio upstream (`bad`); for each case the
 * process stays up, `every_echo` keeps answering (no echo waits past ECHO_BOUND_MS) while `bad` misbehaves, RSS growth stays
 * under the bound stated in the case, and what happened to `bad` is visible to the operator.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { callToolRaw, type CallOutcome } from './raw-mcp.ts';
import {
  beginFaultCase,
  expectGatewayHealthy,
  FAULT_KEY,
  MiB,
  sleep,
  startEchoProbe,
  startRssSampler,
  waitForBad,
  type AdminTool,
  type FaultCase,
} from './fault-support.ts';

let current: FaultCase | undefined;
afterEach(async () => {
  await current?.close();
  current = undefined;
});

/** Starts the case with `bad`'s tools allowed without approval, and waits until `bad` is connected. */
async function beginConnected(mode: string): Promise<FaultCase> {
  current = await beginFaultCase(mode, { allow: true });
  await waitForBad(current, (bad) => bad.state === 'connected', 60_000);
  return current;
}

/** A tool call that must answer within `timeoutMs`; a timeout is reported as the outcome, not thrown. */
async function boundedCall(fault: FaultCase, name: string, args: unknown, timeoutMs: number) {
  return callToolRaw(fault.gateway.url, name, args, { apiKey: FAULT_KEY, timeoutMs }).catch(
    (error: Error): CallOutcome => ({
      status: 0,
      ms: timeoutMs,
      text: `no answer: ${error.message}`,
      bytes: 0,
    }),
  );
}

describe('an upstream that misbehaves once connected', () => {
  it('floods tools/list_changed: list refreshes are coalesced, memory stays bounded, the operator is warned', async () => {
    const fault = await beginConnected('flood');
    const probe = startEchoProbe(fault);
    const rss = startRssSampler(fault);
    await sleep(10_000);
    await expectGatewayHealthy(fault, probe, rss, 200 * MiB);
    const refetches = fault.requests().filter((m) => m === 'tools/list').length;
    expect(
      fault.warnings('bad').length,
      `a warn line naming "bad" (the gateway re-fetched its list ${refetches} times in 10 s)`,
    ).toBeGreaterThan(0);
  }, 120_000);

  it('lists 20,000 tools: the gateway keeps answering and reports the list or why it refused it', async () => {
    current = await beginFaultCase('huge-list', { allow: true });
    const fault = current;
    const probe = startEchoProbe(fault);
    const rss = startRssSampler(fault);
    const bad = await waitForBad(fault, (s) => s.state === 'connected' || s.state === 'down', 60_000);
    await sleep(3_000);
    await expectGatewayHealthy(fault, probe, rss, 300 * MiB);
    if (bad.state === 'down') {
      expect(bad.lastError).toMatch(/tool/i);
    } else {
      expect(bad.toolCount).toBe(20_000);
      const { tools } = await fault.gateway.admin<{ tools: AdminTool[] }>('/tools', 15_000);
      const mine = tools.filter((t) => t.upstream === 'bad');
      expect(mine).toHaveLength(20_000);
      expect(mine.filter((t) => !t.exposed && !t.withheldReason)).toEqual([]);
    }
  }, 120_000);

  it('declares pattern ^(a+)+$: a 32-character adversarial argument cannot freeze the gateway', async () => {
    const fault = await beginConnected('redos');
    const probe = startEchoProbe(fault);
    const rss = startRssSampler(fault);
    const call = boundedCall(fault, 'bad_match', { text: `${'a'.repeat(31)}!` }, 10_000);
    await sleep(3_000);
    const answer = await call;
    await expectGatewayHealthy(fault, probe, rss, 100 * MiB);
    expect(answer.status, answer.text).toBeGreaterThan(0);
    expect(answer.status).toBeLessThan(500);
    // Either the argument is refused (a linear-time engine) or the tool was withheld at exposure with a reason.
    const { tools } = await fault.gateway.admin<{ tools: AdminTool[] }>('/tools');
    const match = tools.find((t) => t.alias === 'bad_match');
    if (match?.exposed)
      expect(answer.text).toMatch(/invalid arguments for bad_match: \/text must match pattern/);
    else expect(match?.withheldReason ?? '', 'why bad_match is withheld').toMatch(/pattern|regex/i);
  }, 120_000);

  it('returns a 50 MB result: the gateway relays or refuses it without freezing or ballooning', async () => {
    const fault = await beginConnected('big-result');
    const probe = startEchoProbe(fault);
    const rss = startRssSampler(fault);
    const answer = await boundedCall(fault, 'bad_blob', {}, 45_000);
    await sleep(1_000);
    await expectGatewayHealthy(fault, probe, rss, 300 * MiB);
    expect(answer.status, answer.text).toBeGreaterThan(0);
    expect(answer.status).toBeLessThan(500);
    // Relayed whole, or refused with an error that names the size.
    if (answer.bytes < 50 * MiB) expect(answer.text).toMatch(/too large|exceeds|size|bytes/i);
  }, 120_000);
});
