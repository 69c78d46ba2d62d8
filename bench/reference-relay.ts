/**
 * Reference relays for the proxy section: stdio processes that sit where `portcullis stdio` sits (between the
 * bench client and the echo upstream) but govern nothing. They measure the floor any relay pays on this machine:
 *   bytes  copies bytes both ways without reading them (the cost of one more process and two more pipes);
 *   json   also parses and re-serializes every line (the least a relay that looks at messages must do);
 *   sdk    an SDK Server downstream and an SDK Client upstream, relaying tools/list and tools/call (the SDK
 *          gateway pattern, before any governance).
 * Run with: node --import tsx bench/reference-relay.ts <bytes|json|sdk> <upstream command> [args...]
 */
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { pathToFileURL } from 'node:url';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { Server } from '@modelcontextprotocol/server';
import { StdioServerTransport } from '@modelcontextprotocol/server/stdio';

/** The reference relays, cheapest first. */
export const RELAY_MODES = ['bytes', 'json', 'sdk'] as const;
/** One reference relay. */
export type RelayMode = (typeof RELAY_MODES)[number];

function spawnUpstream(command: string, args: string[]) {
  const child = spawn(command, args, { stdio: ['pipe', 'pipe', 'inherit'] });
  // The relay lives as long as its client: stdin closed ends the upstream, the upstream's exit ends the relay.
  process.stdin.once('end', () => child.kill());
  child.once('exit', (code) => process.exit(code ?? 0));
  return child;
}

function relayBytes(command: string, args: string[]): void {
  const child = spawnUpstream(command, args);
  process.stdin.pipe(child.stdin);
  child.stdout.pipe(process.stdout);
}

function relayJson(command: string, args: string[]): void {
  const child = spawnUpstream(command, args);
  const forward = (input: NodeJS.ReadableStream, output: NodeJS.WritableStream) =>
    createInterface({ input, crlfDelay: Infinity }).on('line', (line) => {
      output.write(`${JSON.stringify(JSON.parse(line))}\n`);
    });
  forward(process.stdin, child.stdin);
  forward(child.stdout, process.stdout);
}

async function relaySdk(command: string, args: string[]): Promise<void> {
  const client = new Client({ name: 'portcullis-bench-relay', version: '1.0.0' });
  await client.connect(new StdioClientTransport({ command, args, stderr: 'inherit' }));
  const { tools } = await client.listTools();
  const server = new Server(
    { name: 'portcullis-bench-relay', version: '1.0.0' },
    { capabilities: { tools: {} } },
  );
  server.setRequestHandler('tools/list', () => ({ tools }));
  server.setRequestHandler('tools/call', (request) =>
    client.callTool({ name: request.params.name, arguments: request.params.arguments }),
  );
  server.onclose = () => void client.close().finally(() => process.exit(0));
  await server.connect(new StdioServerTransport());
}

async function main(argv: string[]): Promise<void> {
  const [mode, command, ...args] = argv;
  if (!RELAY_MODES.includes(mode as RelayMode) || command === undefined) {
    process.stderr.write(`usage: reference-relay.ts <${RELAY_MODES.join('|')}> <command> [args...]\n`);
    process.exitCode = 2;
    return;
  }
  if (mode === 'bytes') relayBytes(command, args);
  else if (mode === 'json') relayJson(command, args);
  else await relaySdk(command, args);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await main(process.argv.slice(2));
}
