/** SDK clients for the bench: stdio to the echo upstream, Streamable HTTP to the upstream or the gateway. */
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { ECHO_STDIO } from './echo-upstream.ts';

/** A connected client and its transport (the leak check inspects the transport). */
export interface BenchClient {
  client: Client;
  transport: StreamableHTTPClientTransport | StdioClientTransport;
  /** Calls `tool` with `{ message }` and checks the echo came back. */
  echo(tool: string, message: string): Promise<void>;
  close(): Promise<void>;
}

function wrap(client: Client, transport: BenchClient['transport']): BenchClient {
  return {
    client,
    transport,
    async echo(tool, message) {
      const result = await client.callTool({ name: tool, arguments: { message } });
      const first = result.content[0];
      // A wrong answer must not pass as a fast one.
      if (result.isError || first?.type !== 'text' || first.text !== message) {
        throw new Error(`${tool} did not echo: ${JSON.stringify(result).slice(0, 300)}`);
      }
    },
    close: () => client.close(),
  };
}

function newClient(): Client {
  // Default options: legacy era (initialize handshake), default versionNegotiation.
  return new Client({ name: 'portcullis-bench', version: '1.0.0' });
}

/** Connects over Streamable HTTP to `url` (the echo upstream or the gateway's /mcp). */
export async function connectHttp(url: string): Promise<BenchClient> {
  const client = newClient();
  const transport = new StreamableHTTPClientTransport(new URL(url));
  await client.connect(transport);
  return wrap(client, transport);
}

/** Spawns the echo upstream over stdio and connects to it. */
export async function connectStdio(): Promise<BenchClient> {
  const client = newClient();
  const transport = new StdioClientTransport({
    command: ECHO_STDIO.command,
    args: [...ECHO_STDIO.args],
    cwd: ECHO_STDIO.cwd,
    stderr: 'inherit',
  });
  await client.connect(transport);
  return wrap(client, transport);
}
