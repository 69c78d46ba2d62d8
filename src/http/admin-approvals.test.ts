import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { createApprovalInbox, type InboxRequest } from '../approval/inbox.ts';
import type { AuditLog } from '../audit/index.ts';
import { createMasker } from '../secrets/index.ts';
import { addApprovalRoutes, MAX_QUEUED_STREAM_EVENTS } from './admin-approvals.ts';
import type { AdminVariables } from './admin-guard.ts';

const request = (n: number): InboxRequest => ({
  principal: `p${n}`,
  alias: 'files_write',
  argsDigest: `d${n}`,
  upstream: 'files',
  tool: 'write',
  origin: 'upstream',
  risk: 'L3',
  arguments: { n },
  prompt: 'Allow files_write?',
  era: 'legacy',
});

/** Reads the stream to its end, or gives up after `ms` (a stream that never ends). */
async function readToEnd(body: ReadableStream<Uint8Array>, ms: number): Promise<string | 'still open'> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let text = '';
  const deadline = new Promise<'still open'>((resolve) => setTimeout(() => resolve('still open'), ms));
  for (;;) {
    const chunk = await Promise.race([reader.read(), deadline]);
    if (chunk === 'still open') {
      await reader.cancel();
      return chunk;
    }
    if (chunk.done) return text;
    text += decoder.decode(chunk.value);
  }
}

describe('the approval inbox event stream', () => {
  it('ends a stream whose reader falls too far behind, instead of queuing without bound', async () => {
    const inbox = createApprovalInbox({
      ttlMs: 60_000,
      maxPending: 5_000,
      maxPerPrincipal: 10,
      now: Date.now,
    });
    const app = new Hono<{ Variables: AdminVariables }>();
    addApprovalRoutes(app, { inbox, audit: {} as AuditLog, masker: createMasker(), now: Date.now });
    const response = await app.request('/approvals/stream');
    // The reader has not read anything yet; the inbox changes far more often than the stream may queue.
    for (let n = 0; n < MAX_QUEUED_STREAM_EVENTS * 4; n += 1) inbox.submit(request(n));
    const text = await readToEnd(response.body as ReadableStream<Uint8Array>, 5_000);
    expect(text).not.toBe('still open');
    const events = (text as string).split('\n').filter((line) => line.startsWith('event: added'));
    expect(events.length).toBeLessThanOrEqual(MAX_QUEUED_STREAM_EVENTS);
    inbox.close();
  });
});
