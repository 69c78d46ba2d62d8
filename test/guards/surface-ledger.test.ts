/**
 * Issue 17, parts 3–4: prompts, resources and server instructions are fingerprinted into the ledger like tools.
 * A real stdio upstream changes a prompt's description, a resource's description and its server instructions
 * between two runs of the real gateway over one SQLite file; under the fingerprint guard's `enforce` the changed
 * items are withheld (absent from the lists, unknown when asked for, instructions dropped), under `advisory`
 * they are reported and listed; an operator approves each through the admin API (audited) and they come back,
 * for clients of both eras.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/client';
import {
  adminCall,
  connectClient,
  ROOT,
  startGateway,
  tempDir,
  waitFor,
  type RunningGateway,
} from '../helpers/gateway-harness.ts';

const OPERATOR = 'operator-key-0123456789abcdef';
const ERAS = ['legacy', 'modern'] as const;

interface SurfaceFinding {
  kind: string;
  upstream: string;
  name: string;
  uri?: string;
  withheld: boolean;
  fingerprint: { hash: string; status: string } | null;
  findings: { guard: string; code: string }[];
}
interface LedgerRecord {
  upstream: string;
  kind?: string;
  tool: string;
  status: string;
  hash: string;
}

/** What each client sees of the fixture's surface. */
async function visible(client: Client) {
  return {
    prompts: (await client.listPrompts()).prompts.map((p) => p.name).sort(),
    resources: (await client.listResources()).resources.map((r) => r.uri).sort(),
    templates: (await client.listResourceTemplates()).resourceTemplates.map((t) => t.uriTemplate),
  };
}

const ALL = {
  prompts: ['notes_greet', 'notes_summarize'],
  resources: ['notes://index', 'notes://readme'],
  templates: ['notes://{id}'],
};
const WITHOUT_CHANGED = {
  prompts: ['notes_greet'],
  resources: ['notes://index'],
  templates: ['notes://{id}'],
};
const CHANGED_KEYS = [
  'prompt:notes::summarize',
  'resource:notes::notes://readme',
  'server-instructions:notes::instructions',
];

describe.each(['enforce', 'advisory'] as const)(
  'surfaces changed between two runs (fingerprint: %s)',
  (mode) => {
    const enforce = mode === 'enforce';
    const dir = tempDir('portcullis-surface-ledger-');
    const changedFlag = path.join(dir, 'changed');
    const document = {
      store: { path: path.join(dir, 'portcullis.db') },
      admin: { keys: [{ name: 'ops', key: '${OPERATOR_KEY}', role: 'operator' }] },
      guards: { fingerprint: { mode } },
      tools: { bundled: false },
      upstreams: {
        notes: {
          transport: 'stdio',
          command: process.execPath,
          args: [
            '--import',
            'tsx',
            path.join(ROOT, 'test/fixtures/surface-server.ts'),
            `--changed-if=${changedFlag}`,
          ],
          cwd: ROOT,
        },
      },
    };
    const start = () => startGateway(document, { env: { OPERATOR_KEY: OPERATOR } });
    let gateway: RunningGateway;
    const clients: Client[] = [];
    let promptListChanges = 0;

    const admin = <T>(route: string, body?: unknown) => adminCall<T>(gateway, OPERATOR, route, body);
    const ledger = async () =>
      (await admin<{ records: LedgerRecord[] }>('/ledger')).json.records.filter((r) => r.kind !== undefined);
    const surfaces = async () => (await admin<{ surfaces: SurfaceFinding[] }>('/surfaces')).json.surfaces;

    beforeAll(async () => {
      // First run: everything is seen for the first time, recorded ACTIVE, and listed.
      gateway = await start();
      const first = await connectClient(gateway.url, { era: 'legacy' });
      expect(await visible(first)).toEqual(ALL);
      await first.close();
      await gateway.close();
      // The upstream changes while the gateway is down; the second run starts over the same database.
      writeFileSync(changedFlag, '');
      gateway = await start();
      for (const era of ERAS) clients.push(await connectClient(gateway.url, { era }));
      clients[0]?.setNotificationHandler('notifications/prompts/list_changed', () => {
        promptListChanges += 1;
      });
    }, 180_000);
    afterAll(async () => {
      for (const client of clients) await client.close();
      await gateway?.close();
    });

    it('records a fingerprint for every prompt, resource, template and the instructions, apart from the tool', async () => {
      const records = await ledger();
      expect(records.map((r) => `${r.kind}:${r.upstream}::${r.tool}`).sort()).toEqual(
        [
          'prompt:notes::greet',
          'prompt:notes::summarize',
          'resource:notes::notes://index',
          'resource:notes::notes://readme',
          'resource-template:notes::notes://{id}',
          'server-instructions:notes::instructions',
        ].sort(),
      );
      const awaiting = records.filter((r) => r.status === 'AWAITING_REREVIEW');
      expect(awaiting.map((r) => `${r.kind}:${r.upstream}::${r.tool}`).sort()).toEqual(CHANGED_KEYS.sort());
      const all = (await admin<{ records: LedgerRecord[] }>('/ledger')).json.records;
      expect(all.find((r) => r.kind === undefined && r.tool === 'ping')?.status).toBe('ACTIVE');
    });

    it.each(ERAS)(`%s client: the changed items are ${enforce ? 'withheld' : 'listed'}`, async (era) => {
      const client = clients[ERAS.indexOf(era)] as Client;
      expect(await visible(client)).toEqual(enforce ? WITHOUT_CHANGED : ALL);
      const get = client.getPrompt({ name: 'notes_summarize', arguments: { topic: 'x' } });
      const read = client.readResource({ uri: 'notes://readme' });
      if (enforce) {
        await expect(get).rejects.toThrow(/Unknown prompt: notes_summarize/);
        await expect(read).rejects.toThrow(/Unknown resource/);
      } else {
        expect((await get).messages.length).toBe(1);
        expect((await read).contents.length).toBe(1);
      }
      // The unchanged items work either way.
      expect((await client.getPrompt({ name: 'notes_greet', arguments: { who: 'x' } })).messages.length).toBe(
        1,
      );
      expect((await client.readResource({ uri: 'notes://index' })).contents.length).toBe(1);
    });

    it('reports each changed item with the fingerprint guard’s finding, the instructions dropped under enforce', async () => {
      const found = await surfaces();
      expect(found.map((f) => `${f.kind}:${f.name}:${f.withheld}`).sort()).toEqual(
        [
          `prompt:summarize:${enforce}`,
          `resource:readme:${enforce}`,
          `server-instructions:notes:${enforce}`,
        ].sort(),
      );
      for (const finding of found) {
        expect(finding.fingerprint?.status).toBe('AWAITING_REREVIEW');
        expect(finding.findings).toEqual([
          expect.objectContaining({ guard: 'fingerprint', code: 'AWAITING_REREVIEW' }),
        ]);
      }
    });

    it('lists them on the console’s ledger review and shows each side by side', async () => {
      const origin = gateway.url.replace(/\/mcp$/, '');
      const login = await fetch(`${origin}/console/login`, {
        method: 'POST',
        redirect: 'manual',
        headers: { origin },
        body: new URLSearchParams({ key: OPERATOR }),
      });
      expect(login.status).toBe(303);
      const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0] as string;
      const page = async (route: string) => {
        const response = await fetch(`${origin}${route}`, { headers: { cookie } });
        expect(response.status).toBe(200);
        return response.text();
      };
      const list = await page('/console/ledger');
      for (const key of CHANGED_KEYS)
        expect(list).toContain(`href="/console/ledger/${encodeURIComponent(key)}"`);
      expect(list).toContain('server instructions');
      const prompt = await page(`/console/ledger/${encodeURIComponent('prompt:notes::summarize')}`);
      expect(prompt).toContain('Summarizes the notes.</td>');
      expect(prompt).toContain('Summarizes the notes in three bullet points.</td>');
      expect(prompt).toContain(
        `action="/console/ledger/${encodeURIComponent('prompt:notes::summarize')}/act"`,
      );
      expect(prompt).toContain('AWAITING_REREVIEW');
      const instructions = await page(
        `/console/ledger/${encodeURIComponent('server-instructions:notes::instructions')}`,
      );
      expect(instructions).toContain('Notes server. Answer from the notes, and keep answers short.</td>');
    });

    it('shows each change as a diff, and brings the items back once an operator approves them', async () => {
      const diff = await admin<{
        status: string;
        current: { hash: string };
        diff: { changes: { field: string; old: unknown; new: unknown }[]; descriptionDiff: string | null };
      }>(`/ledger/${encodeURIComponent('prompt:notes::summarize')}/diff`);
      expect(diff.status).toBe(200);
      expect(diff.json.diff.changes).toEqual([
        {
          field: 'description',
          path: '',
          kind: 'changed',
          old: 'Summarizes the notes.',
          new: 'Summarizes the notes in three bullet points.',
        },
      ]);
      const instructions = await admin<{ diff: { descriptionDiff: string } }>(
        `/ledger/${encodeURIComponent('server-instructions:notes::instructions')}/diff`,
      );
      expect(instructions.json.diff.descriptionDiff).toContain(
        '+Notes server. Answer from the notes, and keep answers short.',
      );

      // An approval names what the operator reviewed: a stale hash is refused.
      const stale = await admin(`/ledger/${encodeURIComponent(CHANGED_KEYS[0] as string)}/approve`, {
        reason: 'reviewed',
        hash: 'f'.repeat(64),
      });
      expect(stale.status).toBe(400);
      const changesBefore = promptListChanges;
      for (const key of CHANGED_KEYS) {
        const review = await admin<{ current: { hash: string } }>(`/ledger/${encodeURIComponent(key)}/diff`);
        const approved = await admin<{ outcome: string; record: { status: string; key: string } }>(
          `/ledger/${encodeURIComponent(key)}/approve`,
          { reason: 'vendor rewording', hash: review.json.current.hash },
        );
        expect([key, approved.status, approved.json.outcome, approved.json.record]).toEqual([
          key,
          200,
          'APPROVED',
          expect.objectContaining({ status: 'ACTIVE', key }),
        ]);
      }
      for (const client of clients)
        await waitFor(async () => (await visible(client)).prompts.length === 2, 10_000, 'back');
      for (const client of clients) expect(await visible(client)).toEqual(ALL);
      // The approvals changed what is withheld, not any upstream list: the gateway says so itself.
      if (enforce) await waitFor(() => promptListChanges > changesBefore, 10_000, 'prompts/list_changed');
      expect(await surfaces()).toEqual([]);
      expect((await ledger()).every((r) => r.status === 'ACTIVE')).toBe(true);

      const audit = await admin<{
        entries: {
          record: { origin: string; principal: string; alias: string; target?: string; reason?: string };
        }[];
      }>('/audit?order=asc&limit=100');
      const approvals = audit.json.entries
        .map((e) => e.record)
        .filter((r) => r.origin === 'admin' && r.alias === 'admin.ledger.approve')
        .map((r) => `${r.principal} ${r.target} ${r.reason}`);
      expect(approvals).toEqual([
        `admin:ops ${CHANGED_KEYS[0]} reviewed`,
        ...CHANGED_KEYS.map((key) => `admin:ops ${key} vendor rewording`),
      ]);
    });

    it('revokes an item for good, and restore only sends it back to review', async () => {
      const key = encodeURIComponent('resource:notes::notes://index');
      expect((await admin(`/ledger/${key}/revoke`, { reason: 'not needed' })).status).toBe(200);
      const resources = async () => (await clients[1]!.listResources()).resources.map((r) => r.uri);
      if (enforce)
        await waitFor(async () => !(await resources()).includes('notes://index'), 10_000, 'revoked');
      expect((await resources()).includes('notes://index')).toBe(!enforce);
      const restored = await admin<{ record: { status: string } }>(`/ledger/${key}/restore`, {
        reason: 'needed',
      });
      expect(restored.json.record.status).toBe('AWAITING_REREVIEW');
      expect((await resources()).includes('notes://index')).toBe(!enforce);
    });
  },
);
