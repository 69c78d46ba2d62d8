import { describe, expect, it } from 'vitest';
import { createListenSubscriptions, type ListenStream } from './listen-subscriptions.ts';

type Ending = 'local' | 'graceful' | 'remote';

/** A scripted listen(): each call takes the next answer (honor the URI, ignore it, or throw). */
function scriptedClient(answers: ('honor' | 'ignore' | 'throw')[]) {
  const opened: { uri: string; end(how: Ending): void; closedByUs: boolean }[] = [];
  const calls = { count: 0 };
  const client = {
    async listen(filter: { resourceSubscriptions?: string[] }): Promise<ListenStream> {
      calls.count += 1;
      const answer = answers.shift() ?? 'throw';
      if (answer === 'throw') {
        // Refused a moment later, as over a real link.
        await tick();
        throw new Error('listen refused');
      }
      const uri = filter.resourceSubscriptions?.[0] as string;
      let end!: (how: Ending) => void;
      const closed = new Promise<Ending>((resolve) => (end = resolve));
      const entry = { uri, end, closedByUs: false };
      opened.push(entry);
      return {
        honoredFilter: answer === 'honor' ? { resourceSubscriptions: [uri] } : {},
        closed,
        async close() {
          entry.closedByUs = true;
          end('local');
        },
      };
    },
  };
  return { client: client as never, opened, calls };
}

function tick(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/** Waits (bounded) until `done` holds. */
async function until(done: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !done(); i++) await new Promise((resolve) => setTimeout(resolve, 2));
  expect(done()).toBe(true);
}

/** One URI whose first stream opens and whose re-open is refused, with the losses it reports. */
function droppingOnReopen() {
  const scripted = scriptedClient(['honor', 'throw']);
  const lost: string[] = [];
  const subs = createListenSubscriptions({
    client: scripted.client,
    upstreamId: 'up',
    timeoutMs: 1000,
    onLost: (uri) => lost.push(uri),
    retryDelayMs: () => 5,
  });
  return { ...scripted, lost, subs };
}

describe('createListenSubscriptions', () => {
  it('opens one stream per URI, once, and closes it on unsubscribe', async () => {
    const { client, opened } = scriptedClient(['honor']);
    const subs = createListenSubscriptions({ client, upstreamId: 'up', timeoutMs: 1000 });
    await subs.subscribe('note://a');
    await subs.subscribe('note://a');
    expect(opened.map((o) => o.uri)).toEqual(['note://a']);
    expect(subs.size).toBe(1);
    await subs.unsubscribe('note://a');
    expect(opened[0]?.closedByUs).toBe(true);
    expect(subs.size).toBe(0);
  });

  it.each<{ answer: 'ignore' | 'throw'; message: RegExp }>([
    { answer: 'ignore', message: /upstream "up" did not accept a subscription to note:\/\/a/ },
    {
      answer: 'throw',
      message: /upstream "up" refused subscriptions\/listen for note:\/\/a: listen refused/,
    },
  ])('refuses with UPSTREAM_ERROR when the upstream answers "$answer"', async ({ answer, message }) => {
    const { client, opened } = scriptedClient([answer]);
    const subs = createListenSubscriptions({ client, upstreamId: 'up', timeoutMs: 1000 });
    await expect(subs.subscribe('note://a')).rejects.toMatchObject({ code: 'UPSTREAM_ERROR', message });
    expect(subs.size).toBe(0);
    if (answer === 'ignore') expect(opened[0]?.closedByUs).toBe(true);
  });

  it('reopens a dropped stream at once; while that fails, retries with backoff and reports loss then restore', async () => {
    const { client, opened, calls } = scriptedClient(['honor', 'honor', 'throw', 'throw', 'honor']);
    const events: string[] = [];
    const delays: number[] = [];
    const subs = createListenSubscriptions({
      client,
      upstreamId: 'up',
      timeoutMs: 1000,
      onLost: (uri, error) => events.push(`lost ${uri}: ${error.message}`),
      onRestored: (uri) => events.push(`restored ${uri}`),
      retryDelayMs: (attempt) => {
        delays.push(attempt);
        return 1;
      },
    });
    await subs.subscribe('note://a');
    opened[0]?.end('remote');
    await until(() => opened.length === 2);
    expect(subs.size).toBe(1);
    expect(events).toEqual([]);
    opened[1]?.end('remote');
    await until(() => events.length === 2);
    expect(events).toEqual([
      expect.stringMatching(/^lost note:\/\/a: upstream "up" refused subscriptions\/listen/),
      'restored note://a',
    ]);
    expect(calls.count).toBe(5);
    expect(delays).toEqual([1, 2]);
    expect(subs.size).toBe(1);
  });

  it('stops retrying a lost stream once its URI is unsubscribed', async () => {
    const { opened, calls, lost, subs } = droppingOnReopen();
    await subs.subscribe('note://a');
    opened[0]?.end('remote');
    await until(() => lost.length === 1);
    await subs.unsubscribe('note://a');
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(calls.count).toBe(2);
    expect(subs.size).toBe(0);
  });

  it('lets two subscribes to one URI share its first open', async () => {
    const { client, calls } = scriptedClient(['throw']);
    const subs = createListenSubscriptions({ client, upstreamId: 'up', timeoutMs: 1000 });
    const both = await Promise.allSettled([subs.subscribe('note://a'), subs.subscribe('note://a')]);
    expect(both.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    expect(calls.count).toBe(1);
  });

  it('closes every stream with the link and reopens none', async () => {
    const { client, opened, calls } = scriptedClient(['honor', 'honor']);
    const subs = createListenSubscriptions({ client, upstreamId: 'up', timeoutMs: 1000 });
    await subs.subscribe('note://a');
    subs.closeAll();
    expect(opened[0]?.closedByUs).toBe(true);
    await tick();
    expect(calls.count).toBe(1);
    expect(subs.size).toBe(0);
  });

  it('reports no loss when the link goes down while a dropped stream is being reopened', async () => {
    const { opened, calls, lost, subs } = droppingOnReopen();
    await subs.subscribe('note://a');
    opened[0]?.end('remote');
    while (calls.count < 2) await Promise.resolve();
    subs.closeAll();
    await tick();
    await tick();
    expect(lost).toEqual([]);
  });
});
