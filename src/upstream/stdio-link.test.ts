/**
 * The gateway's own stdio client transport against real child processes (node scripts): framing of what the
 * child writes (lines split across chunks, several in one chunk, CRLF, garbage, a line over the cap), the
 * environment it gets, and its end (exit mid-exchange, a closed stdin, a child that never reads).
 */
import type { JSONRPCMessage, Transport } from '@modelcontextprotocol/client';
import { describe, expect, it } from 'vitest';
import type { UpstreamConfig } from '../config/index.ts';
import { fatalTransportError } from './link-support.ts';
import { StdioLink, StdioMessageTooLarge } from './stdio-link.ts';
import { createTransport } from './transports.ts';

const NODE = process.execPath;

/** A stdio upstream config that runs `script` under node. */
function scripted(script: string, env: Record<string, string> = {}): UpstreamConfig {
  return {
    id: 'scripted',
    transport: 'stdio',
    command: NODE,
    args: ['-e', script],
    env,
  } as unknown as UpstreamConfig;
}

/** Records what a transport reports. */
function observe(transport: Transport) {
  const seen = { messages: [] as JSONRPCMessage[], errors: [] as Error[], closes: 0 };
  transport.onmessage = (message) => seen.messages.push(message);
  transport.onerror = (error) => seen.errors.push(error);
  transport.onclose = () => {
    seen.closes += 1;
  };
  return seen;
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

const result = (id: number) => JSON.stringify({ jsonrpc: '2.0', id, result: { n: id } });

describe('the stdio link transport', () => {
  it('reads a line the child writes in pieces, and several lines the child writes at once', async () => {
    const line = result(1);
    const half = Math.floor(line.length / 2);
    // Three writes a turn apart: the first message arrives in two chunks, then two whole lines in one chunk.
    const script = `
      const w = (s) => process.stdout.write(s);
      w(${JSON.stringify(line.slice(0, half))});
      setTimeout(() => w(${JSON.stringify(`${line.slice(half)}\n`)}), 50);
      setTimeout(() => w(${JSON.stringify(`${result(2)}\n${result(3)}\n`)}), 100);
      process.stdin.resume();`;
    const transport = createTransport(scripted(script), { inheritedEnv: {} });
    const seen = observe(transport);
    await transport.start();
    try {
      await expect.poll(() => seen.messages.length).toBe(3);
      expect(seen.messages).toEqual([1, 2, 3].map((id) => JSON.parse(result(id))));
      expect(seen.errors).toEqual([]);
    } finally {
      await transport.close();
    }
  });

  it('takes CRLF line ends, skips blank and non-JSON lines, reports a JSON line that is not JSON-RPC', async () => {
    const chunk = `${result(1)}\r\n\r\nnot json at all\n{"hello":"world"}\n[1,2]\n${result(2)}\n`;
    const script = `process.stdout.write(${JSON.stringify(chunk)}); process.stdin.resume();`;
    const transport = createTransport(scripted(script), { inheritedEnv: {} });
    const seen = observe(transport);
    await transport.start();
    try {
      await expect.poll(() => seen.messages.length).toBe(2);
      expect(seen.messages).toEqual([JSON.parse(result(1)), JSON.parse(result(2))]);
      // As the SDK's transport: the line that is not JSON is skipped silently, the two that are JSON but not
      // JSON-RPC are each reported; none of them ends the link.
      expect(seen.errors.map((error) => error.message)).toEqual([
        'an upstream stdio line is not a JSON-RPC message',
        'an upstream stdio line is not a JSON-RPC message',
      ]);
      expect(seen.closes).toBe(0);
    } finally {
      await transport.close();
    }
  });

  it('drops the link on a line over the cap, after delivering the lines before it in the same chunk', async () => {
    const chunk = `${result(1)}\n${'x'.repeat(300)}\n${result(2)}\n`;
    const script = `process.stdout.write(${JSON.stringify(chunk)}); process.stdin.resume(); setInterval(() => {}, 1000);`;
    const transport = new StdioLink({ command: NODE, args: ['-e', script], env: {}, maxLineBytes: 200 });
    const seen = observe(transport);
    await transport.start();
    const pid = transport.pid as number;
    // This child outlives the end of its stdin: SIGTERM ends it after the grace.
    await expect.poll(() => seen.closes, { timeout: 10_000 }).toBe(1);
    expect(seen.messages).toEqual([JSON.parse(result(1))]);
    expect(seen.errors).toHaveLength(1);
    const [error] = seen.errors;
    expect(error).toBeInstanceOf(StdioMessageTooLarge);
    expect(fatalTransportError(error as Error)?.message).toBe(
      'sent a message larger than 200 bytes, the most one stdio message may hold; the link was dropped',
    );
    await expect.poll(() => alive(pid)).toBe(false);
    await transport.close();
    expect(seen.closes).toBe(1);
  }, 20_000);

  it('gives the child only PATH, HOME and its configured env', async () => {
    const script = `process.stdout.write(JSON.stringify({ jsonrpc: '2.0', id: 1, result: { keys: Object.keys(process.env).sort() } }) + '\\n'); process.stdin.resume();`;
    const transport = createTransport(scripted(script, { TOKEN: 'configured' }), {
      inheritedEnv: { PATH: '/usr/bin:/bin', HOME: '/nonexistent' },
    });
    const seen = observe(transport);
    await transport.start();
    try {
      await expect.poll(() => seen.messages.length).toBe(1);
      // Node may add nothing of its own on Linux; whatever the parent process has (SHELL, TERM, USER) stays out.
      expect(seen.messages[0]).toMatchObject({ result: { keys: ['HOME', 'PATH', 'TOKEN'] } });
    } finally {
      await transport.close();
    }
  });

  it('closes once when the child exits mid-exchange, and refuses to send afterwards', async () => {
    // Answers the first request, then exits while the second waits.
    const script = `
      let n = 0;
      process.stdin.on('data', () => {
        n += 1;
        if (n === 1) process.stdout.write(${JSON.stringify(`${result(1)}\n`)});
        else process.exit(3);
      });`;
    const transport = createTransport(scripted(script), { inheritedEnv: {} });
    const seen = observe(transport);
    await transport.start();
    await transport.send({ jsonrpc: '2.0', id: 1, method: 'ping' });
    await expect.poll(() => seen.messages.length).toBe(1);
    await transport.send({ jsonrpc: '2.0', id: 2, method: 'ping' });
    await expect.poll(() => seen.closes).toBe(1);
    await expect(transport.send({ jsonrpc: '2.0', id: 3, method: 'ping' })).rejects.toThrow('Not connected');
    await transport.close();
    expect(seen.closes).toBe(1);
  });

  it('closes once when the child closes its stdin and a write fails', async () => {
    // Closes its stdin at once but keeps running: the next write gets EPIPE.
    const script = `require('fs').closeSync(0); setInterval(() => {}, 1000);`;
    const transport = createTransport(scripted(script), { inheritedEnv: {} });
    const seen = observe(transport);
    await transport.start();
    const pid = (transport as StdioLink).pid as number;
    // Writes until one fails: the pipe is gone once the child has closed its end.
    for (let id = 0; seen.closes === 0 && id < 200; id += 1) {
      await transport.send({ jsonrpc: '2.0', id, method: 'ping' }).catch(() => {});
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    await expect.poll(() => seen.closes, { timeout: 10_000 }).toBe(1);
    expect(seen.errors.map((error) => (error as NodeJS.ErrnoException).code)).toContain('EPIPE');
    await expect.poll(() => alive(pid), { timeout: 10_000 }).toBe(false);
    await transport.close();
    expect(seen.closes).toBe(1);
  }, 20_000);

  it('fails a send blocked on a child that never reads, and kills that child on close', async () => {
    const script = `process.stdin.pause(); setInterval(() => {}, 1000);`;
    const transport = createTransport(scripted(script), { inheritedEnv: {} });
    const seen = observe(transport);
    await transport.start();
    const pid = (transport as StdioLink).pid as number;
    // Far more than a pipe holds: the write cannot finish while nobody reads.
    const blocked = transport.send({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'big', arguments: { blob: 'y'.repeat(4 * 1024 * 1024) } },
    });
    let settled = false;
    blocked.then(
      () => (settled = true),
      () => (settled = true),
    );
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(settled).toBe(false);
    // Ending stdin does not stop this child; SIGTERM after the grace does.
    await transport.close();
    await expect(blocked).rejects.toThrow('Connection closed');
    expect(seen.closes).toBe(1);
    await expect.poll(() => alive(pid)).toBe(false);
  }, 20_000);

  it('drops the link of a child that leaves more than the cap of bytes unread, failing what waits', async () => {
    const script = `process.stdin.pause(); setInterval(() => {}, 1000);`;
    const transport = new StdioLink({
      command: NODE,
      args: ['-e', script],
      env: {},
      maxUnreadBytes: 1024 * 1024,
    });
    const seen = observe(transport);
    await transport.start();
    const pid = transport.pid as number;
    const big = (id: number) =>
      transport.send({
        jsonrpc: '2.0',
        id,
        method: 'tools/call',
        params: { name: 'big', arguments: { blob: 'y'.repeat(600 * 1024) } },
      });
    // The pipe takes what the kernel buffers (64 KiB); the rest of the first message waits in the gateway, and a
    // second one would take the waiting bytes past the cap.
    const first = big(1).catch((error: unknown) => error);
    const over = await big(2).catch((error: unknown) => error);
    expect(String(over)).toContain('stopped reading');
    expect(String(await first)).toContain('Connection closed');
    expect(seen.errors.map(String).join('\n')).toContain('1048576 bytes');
    expect(seen.closes).toBe(1);
    await expect.poll(() => alive(pid), { timeout: 10_000 }).toBe(false);
  }, 20_000);
});
