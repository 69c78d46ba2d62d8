/** SDK clients for the bench: stdio to a launched process, Streamable HTTP to the upstream or the gateway. */
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { perRequestSignalFetch } from './sdk-fetch.ts';
import { ECHO_STDIO } from './echo-upstream.ts';

/** A connected client and its transport (the leak check inspects the transport). */
export interface BenchClient {
  client: Client;
  transport: StreamableHTTPClientTransport | StdioClientTransport;
  /** Calls `tool` with `{ message }` and checks the echo came back. */
  echo(tool: string, message: string): Promise<void>;
  /** Calls `tool` with `args` and checks the first text content contains `expected`. */
  expectText(tool: string, args: Record<string, unknown>, expected: string): Promise<void>;
  close(): Promise<void>;
}

/** How to launch a stdio MCP server. */
export interface StdioLaunch {
  command: string;
  args: readonly string[];
  cwd: string;
}

function wrap(client: Client, transport: BenchClient['transport']): BenchClient {
  const expectText = async (tool: string, args: Record<string, unknown>, expected: string) => {
    const result = await client.callTool({ name: tool, arguments: args });
    const first = result.content[0];
    // A wrong answer must not pass as a fast one.
    if (result.isError || first?.type !== 'text' || !first.text.includes(expected)) {
      throw new Error(`${tool} did not answer ${expected}: ${JSON.stringify(result).slice(0, 300)}`);
    }
  };
  return {
    client,
    transport,
    async echo(tool, message) {
      const result = await client.callTool({ name: tool, arguments: { message } });
      const first = result.content[0];
      if (result.isError || first?.type !== 'text' || first.text !== message) {
        throw new Error(`${tool} did not echo: ${JSON.stringify(result).slice(0, 300)}`);
      }
    },
    expectText,
    close: () => client.close(),
  };
}

function newClient(): Client {
  // Default options: legacy era (initialize handshake), default versionNegotiation.
  return new Client({ name: 'portcullis-bench', version: '1.0.0' });
}

/**
 * Connects over Streamable HTTP to `url` (the echo upstream or the gateway's /mcp). By default the client uses the
 * bench's per-request-signal fetch (sdk-fetch.ts), so the SDK's abort-listener pile-up in the bench client neither adds cost
 * to the HTTP rows nor floods the warning count; `sdkFetch: true` keeps the SDK's own fetch (the leak section
 * studies it).
 */
export async function connectHttp(url: string, options: { sdkFetch?: boolean } = {}): Promise<BenchClient> {
  const client = newClient();
  const transport = new StreamableHTTPClientTransport(
    new URL(url),
    options.sdkFetch ? {} : { fetch: perRequestSignalFetch },
  );
  await client.connect(transport);
  return wrap(client, transport);
}

/**
 * Launches a stdio MCP server (the echo upstream by default, or `portcullis stdio`) and connects to it.
 * With `onStderr`, the child's stderr is piped to it instead of inherited.
 */
export async function connectStdio(
  launch: StdioLaunch = ECHO_STDIO,
  onStderr?: (chunk: Buffer) => void,
): Promise<BenchClient> {
  const client = newClient();
  const transport = new StdioClientTransport({
    command: launch.command,
    args: [...launch.args],
    cwd: launch.cwd,
    stderr: onStderr ? 'pipe' : 'inherit',
  });
  if (onStderr) transport.stderr?.on('data', onStderr);
  await client.connect(transport);
  return wrap(client, transport);
}
