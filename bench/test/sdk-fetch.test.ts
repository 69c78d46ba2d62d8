import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { getEventListeners } from 'node:events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { perRequestSignalFetch } from '../sdk-fetch.ts';

let server: Server;
let url: string;

beforeAll(async () => {
  server = createServer((request, response) => {
    // Answer slowly enough that every request of a burst is in flight at once.
    setTimeout(() => response.end(`ok ${request.url}`), 30);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('perRequestSignalFetch', () => {
  it('holds one listener per request in flight on the lifetime signal, warns about none, and releases all', async () => {
    const lifetime = new AbortController();
    const warnings: Error[] = [];
    const onWarning = (warning: Error) => warnings.push(warning);
    process.on('warning', onWarning);
    try {
      const pending = Array.from({ length: 40 }, (_, i) =>
        perRequestSignalFetch(`${url}/${i}`, { signal: lifetime.signal }),
      );
      const responses = await Promise.all(pending);
      // Headers are in, bodies still open: each request still follows the lifetime signal.
      expect(getEventListeners(lifetime.signal, 'abort')).toHaveLength(40);
      const bodies = await Promise.all(responses.map((r) => r.text()));
      expect(bodies[7]).toBe('ok /7');
      expect(getEventListeners(lifetime.signal, 'abort')).toHaveLength(0);
      await new Promise((resolve) => setImmediate(resolve));
      expect(warnings.filter((w) => w.name === 'MaxListenersExceededWarning')).toEqual([]);
    } finally {
      process.off('warning', onWarning);
    }
  });

  it('aborts a request in flight when the lifetime signal aborts', async () => {
    const lifetime = new AbortController();
    const request = perRequestSignalFetch(`${url}/slow`, { signal: lifetime.signal });
    lifetime.abort(new Error('transport closed'));
    await expect(request).rejects.toThrow('transport closed');
    expect(getEventListeners(lifetime.signal, 'abort')).toHaveLength(0);
  });
});
