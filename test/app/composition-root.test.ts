/**
 * The composition root (src/app/): buildGateway only wires — nothing connects before `start()` — and the wired
 * gateway carries the guards' decisions into the call stages. The HITL risk credit lowers a tool's effective
 * level only when a person is in the loop: a tool in DISABLED mode is gated, recorded and matched by approval
 * rules at its inherent level (docs/rules/risk-model.md).
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildGateway } from '../../src/app/index.ts';
import { buildCore } from '../../src/app/core.ts';
import type { AuditRecord } from '../../src/audit/index.ts';
import { buildConfig } from '../../src/config/index.ts';
import {
  connectClient,
  startGateway,
  tempDir,
  UPSTREAMS,
  type RunningGateway,
} from '../helpers/gateway-harness.ts';
import { auditRecords, resultText } from '../helpers/serve-support.ts';

describe('buildGateway', () => {
  it('wires without connecting; start() connects and publishes the tools, close() stops', async () => {
    const dir = tempDir('portcullis-root-');
    const config = buildConfig(
      {
        store: { path: path.join(dir, 'portcullis.db') },
        tools: { bundled: false },
        upstreams: { files: UPSTREAMS.filesystem(dir) },
      },
      'test',
      dir,
      () => undefined,
    );
    const gateway = buildGateway(config, {
      inheritedEnv: { PATH: process.env.PATH, HOME: process.env.HOME },
      writeLog: () => {},
    });
    try {
      expect(gateway.supervisor.snapshots().map((s) => s.state)).not.toContain('connected');
      expect(gateway.registry.all()).toEqual([]);
      const ready = await gateway.app.request('http://127.0.0.1/readyz');
      expect(ready.status).toBe(200);

      gateway.start();
      await gateway.ready(60_000);
      expect(gateway.supervisor.snapshots().map((s) => s.state)).toEqual(['connected']);
      expect(gateway.registry.all().some((t) => t.alias === 'files_read_text_file' && t.exposed)).toBe(true);
    } finally {
      await gateway.close();
    }
    const closed = await gateway.app.request('http://127.0.0.1/readyz');
    expect(closed.status).toBe(503);
    expect(await closed.json()).toMatchObject({ status: 'unavailable', store: 'closed' });
  }, 90_000);
});

describe('refresh', () => {
  it('coalesces a burst of refreshes into one rebuild on the next turn; a read in between rebuilds first', async () => {
    const dir = tempDir('portcullis-refresh-');
    const config = buildConfig(
      { store: { path: path.join(dir, 'portcullis.db') }, tools: { bundled: false } },
      'test',
      dir,
      () => undefined,
    );
    let governed = 0;
    const core = buildCore(config, {
      inheritedEnv: {},
      writeLog: () => {},
      govern: (tools) => {
        governed += 1;
        return tools;
      },
    });
    try {
      core.start();
      expect(governed).toBe(1);
      for (let i = 0; i < 5; i += 1) core.refresh();
      expect(governed).toBe(1);
      await new Promise((resolve) => setImmediate(resolve));
      expect(governed).toBe(2);
      core.refresh();
      core.registry.all();
      expect(governed).toBe(3);
      await new Promise((resolve) => setImmediate(resolve));
      expect(governed).toBe(3);
    } finally {
      await core.close();
    }
  });
});

describe("the upstreams' first connects", () => {
  const upstreamsOf = (tools: readonly { upstream?: string }[]) =>
    [...new Set(tools.map((t) => t.upstream).filter((u) => u !== undefined))].sort();

  /** A core over `upstreams` whose governance records which upstreams each candidate list held. */
  function recordingCore(upstreams: Record<string, unknown>, connectTimeoutMs?: number) {
    const dir = tempDir('portcullis-first-connects-');
    const config = buildConfig(
      { store: { path: path.join(dir, 'portcullis.db') }, tools: { bundled: false }, upstreams },
      'test',
      dir,
      () => undefined,
    );
    const governed: string[][] = [];
    const core = buildCore(config, {
      inheritedEnv: { PATH: process.env.PATH, HOME: process.env.HOME },
      writeLog: () => {},
      ...(connectTimeoutMs === undefined ? {} : { connectTimeoutMs }),
      firstConnectsWaitMs: 120_000,
      govern: (tools) => {
        governed.push(upstreamsOf(tools));
        return tools;
      },
    });
    return { core, governed };
  }

  it('governs in the background once every first attempt has ended, not once per upstream', async () => {
    const files = tempDir('portcullis-first-connects-files-');
    // Nothing reads the list while they connect.
    const { core, governed } = recordingCore({
      files: UPSTREAMS.filesystem(files),
      memory: UPSTREAMS.memory,
    });
    const changed: number[] = [];
    core.onListChanged((kind) => {
      if (kind === 'tools') changed.push(governed.length);
    });
    try {
      core.start();
      await core.ready(60_000);
      await vi.waitFor(() => expect(governed.at(-1)).toEqual(['files', 'memory']), { timeout: 10_000 });
      // The start's empty list, then one list with both upstreams: never one with only the first to connect.
      expect(governed).toEqual([[], ['files', 'memory']]);
      expect(changed).toEqual([1, 2]);
    } finally {
      await core.close();
    }
  }, 90_000);

  it('answers a read during the wait with the tools of the upstreams connected so far', async () => {
    const { core, governed } = recordingCore(
      {
        memory: UPSTREAMS.memory,
        // Never answers: its first attempt ends at the connect timeout.
        silent: {
          transport: 'stdio',
          command: process.execPath,
          args: ['-e', 'setInterval(() => {}, 1000)'],
        },
      },
      4000,
    );
    try {
      core.start();
      await vi.waitFor(() => expect(core.supervisor.snapshot('memory')?.state).toBe('connected'), {
        timeout: 30_000,
      });
      for (let turn = 0; turn < 3; turn += 1) await new Promise((resolve) => setImmediate(resolve));
      expect(core.supervisor.snapshot('silent')?.state).toBe('connecting');
      // No background rebuild yet, but a read rebuilds first: the memory server's tools are there.
      expect(governed).toEqual([[]]);
      expect(upstreamsOf(core.registry.advertised().map((t) => core.registry.find(t.name) ?? {}))).toEqual([
        'memory',
      ]);
      expect(governed).toEqual([[], ['memory']]);
      // The silent one's attempt ends (down): the window closes and the list is governed again in the background.
      await vi.waitFor(() => expect(core.supervisor.snapshot('silent')?.state).toBe('down'), {
        timeout: 30_000,
      });
      await vi.waitFor(() => expect(governed).toHaveLength(3), { timeout: 10_000 });
    } finally {
      await core.close();
    }
  }, 90_000);
});

describe('the HITL risk credit through the wired gateway', () => {
  const files = tempDir('portcullis-credit-');
  let gateway: RunningGateway;
  beforeAll(async () => {
    gateway = await startGateway({
      upstreams: {
        files: {
          ...UPSTREAMS.filesystem(files),
          tools: {
            overrides: {
              create_directory: { hitl: 'DISABLED' },
              write_file: { hitl: 'REQUIRED' },
              edit_file: { hitl: 'AUTO_APPROVE' },
            },
          },
        },
      },
      approval: {
        rules: [
          {
            id: 'upstream-l2-up',
            match: { origin: 'upstream', riskAtLeast: 'L2' },
            decision: 'deny',
            reason: 'L2 and above are refused here',
          },
          {
            id: 'local-l1-up',
            match: { origin: 'local', riskAtLeast: 'L1' },
            decision: 'deny',
            reason: 'local tools above L0 are refused here',
          },
        ],
      },
    });
  }, 120_000);
  afterAll(async () => gateway?.close());

  const governed = (alias: string) => gateway.gateway.registry.find(alias)?.governance?.risk;

  it('gives the credit to a tool a person approves, never to one in DISABLED or AUTO_APPROVE mode', () => {
    expect(governed('files_write_file')).toMatchObject({ hitlMitigated: true });
    // AUTO_APPROVE asks nobody below the threshold: crediting it would lift a tool at the threshold out of it.
    const autoApproved = governed('files_edit_file');
    expect(autoApproved).toMatchObject({ hitlMitigated: false });
    expect(autoApproved?.effective).toBe(autoApproved?.final);
    expect(governed('files_create_directory')).toMatchObject({
      final: 'L2',
      effective: 'L2',
      hitlMitigated: false,
    });
    expect(governed('base64')).toMatchObject({ final: 'L0', effective: 'L0', hitlMitigated: false });
  });

  it('matches approval rules and records the call at the uncredited level (upstream tool)', async () => {
    const client = await connectClient(gateway.url, { era: 'legacy' });
    const result = await client.callTool({
      name: 'files_create_directory',
      arguments: { path: path.join(files, 'made') },
    });
    await client.close();
    expect(result.isError).toBe(true);
    expect(resultText(result)).toMatch(/L2 and above are refused here/);
    const record = (await auditRecords(gateway.gateway)).findLast(
      (r: AuditRecord) => r.alias === 'files_create_directory',
    );
    expect(record).toMatchObject({
      outcome: 'ERROR',
      errorCode: 'TOOL_DENIED',
      risk: { final: 'L2', hitlMitigated: false },
      approval: { mode: 'DISABLED', decision: 'deny', ruleId: 'upstream-l2-up' },
    });
  });

  it('runs a DISABLED local tool at its own level, below a rule that starts one band higher', async () => {
    const client = await connectClient(gateway.url, { era: 'modern' });
    const result = await client.callTool({ name: 'base64', arguments: { text: 'hi', mode: 'encode' } });
    await client.close();
    expect(result.isError).toBeFalsy();
    expect(resultText(result)).toContain('aGk=');
    const record = (await auditRecords(gateway.gateway)).findLast((r: AuditRecord) => r.alias === 'base64');
    expect(record).toMatchObject({
      outcome: 'OK',
      risk: { final: 'L0', hitlMitigated: false },
      approval: { mode: 'DISABLED', decision: 'allow' },
    });
  });
});
