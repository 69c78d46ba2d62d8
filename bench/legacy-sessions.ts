/**
 * Idle 2025-era sessions on a gateway's /mcp, opened with plain fetch (an SDK client per session would put 2,000
 * clients in the bench process): `initialize`, then `notifications/initialized`, then nothing.
 */
/** The protocol revision the sessions ask for (the newest of the 2025 era). */
export const LEGACY_REVISION = '2025-11-25';

const HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

/** Opens one idle legacy session on `url` and returns its id; throws on any answer but a session. */
export async function openLegacySession(url: string, index: number): Promise<string> {
  const init = await fetch(url, {
    method: 'POST',
    headers: HEADERS,
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: {
        protocolVersion: LEGACY_REVISION,
        capabilities: {},
        clientInfo: { name: `portcullis-bench-idle-${index}`, version: '1.0.0' },
      },
    }),
  });
  const body = await init.text();
  const session = init.headers.get('mcp-session-id');
  if (!init.ok || session === null || !body.includes('"result"')) {
    throw new Error(`initialize answered ${init.status} without a session: ${body.slice(0, 200)}`);
  }
  const initialized = await postOnSession(url, session, {
    jsonrpc: '2.0',
    method: 'notifications/initialized',
  });
  await initialized.arrayBuffer();
  if (initialized.status !== 202) throw new Error(`notifications/initialized answered ${initialized.status}`);
  return session;
}

/** Posts one JSON-RPC message on an open session (the headers a 2025-era client sends). */
export function postOnSession(
  url: string,
  session: string,
  message: Record<string, unknown>,
): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    headers: { ...HEADERS, 'mcp-session-id': session, 'mcp-protocol-version': LEGACY_REVISION },
    body: JSON.stringify(message),
  });
}

/** Opens `count` idle sessions with `concurrency` at a time; the first failure stops the run and is thrown. */
export async function openLegacySessions(url: string, count: number, concurrency = 8): Promise<string[]> {
  const ids: string[] = [];
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const index = next;
      next += 1;
      try {
        ids.push(await openLegacySession(url, index));
      } catch (error) {
        next = count;
        throw error;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, count) }, worker));
  return ids;
}
