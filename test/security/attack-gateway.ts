/**
 * The attack suites' door: hostile Safe Tool Specs written into a tools directory, served by a real gateway,
 * called by a real SDK client. `call` answers with what a client sees: the text, whether it is an error, and
 * the stable code and reason Portcullis attaches to its own errors.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import type { CallToolResult, Client } from '@modelcontextprotocol/client';
import type { GatewayDeps } from '../../src/app/index.ts';
import { connectClient, startGateway, tempDir, type RunningGateway } from '../helpers/gateway-harness.ts';

/** One hostile tool: its code and the sandbox grants its author asked for. */
export interface AttackSpec {
  name: string;
  code: string;
  /** Parameter names; all optional strings (specs in a tools directory are not Local-Passed). */
  params?: string[];
  overrides?: Record<string, unknown>;
  profile?: string;
}

/** What the client saw. */
export interface Seen {
  isError: boolean;
  text: string;
  code: string | undefined;
  reason: string | undefined;
  result: CallToolResult;
}

/** A running gateway with the attack specs published and a connected client. */
export interface AttackBench {
  gateway: RunningGateway;
  client: Client;
  toolsDir: string;
  call(name: string, args?: Record<string, unknown>): Promise<Seen>;
  close(): Promise<void>;
}

function specDocument(spec: AttackSpec): Record<string, unknown> {
  return {
    name: spec.name,
    description: `Attack corpus entry ${spec.name}: hostile code run through the gateway.`,
    params: (spec.params ?? []).map((name) => ({
      name,
      type: 'STRING',
      required: false,
      description: `input ${name}`,
    })),
    codeType: 'Javascript',
    code: spec.code,
    // The attacker is the tool author: no person is asked, so only the sandbox stands in the way.
    humanInTheLoop: { mode: 'DISABLED' },
    ...(spec.overrides === undefined ? {} : { sandboxOverrides: spec.overrides }),
    ...(spec.profile === undefined ? {} : { 'x-portcullis-sandbox-profile': spec.profile }),
    draft: false,
  };
}

/** Reads a client-visible result into a `Seen`. */
export function seen(result: CallToolResult): Seen {
  const text = result.content.map((item) => (item.type === 'text' ? item.text : '')).join('');
  const meta = result._meta?.['dev.portcullis/error'] as { code?: string; reason?: string } | undefined;
  return { isError: result.isError === true, text, code: meta?.code, reason: meta?.reason, result };
}

/** Writes the specs, starts the gateway (workspace `workspace`, no bundled catalog) and connects a client. */
export async function startAttackBench(
  specs: readonly AttackSpec[],
  options: { workspace: string; deps?: Partial<GatewayDeps> },
): Promise<AttackBench> {
  const toolsDir = tempDir('portcullis-attack-specs-');
  for (const spec of specs) {
    writeFileSync(path.join(toolsDir, `${spec.name}.json`), JSON.stringify(specDocument(spec), null, 2));
  }
  const gateway = await startGateway(
    { tools: { dir: toolsDir, bundled: false, workspace: options.workspace } },
    options.deps === undefined ? {} : { deps: options.deps },
  );
  const client = await connectClient(gateway.url, { era: 'legacy' });
  const listed = new Set((await client.listTools()).tools.map((tool) => tool.name));
  const missing = specs.filter((spec) => !listed.has(spec.name)).map((spec) => spec.name);
  if (missing.length > 0) throw new Error(`attack specs not published: ${missing.join(', ')}`);
  return {
    gateway,
    client,
    toolsDir,
    async call(name, args = {}) {
      return seen((await client.callTool({ name, arguments: args })) as CallToolResult);
    },
    async close() {
      await client.close();
      await gateway.close();
    },
  };
}
