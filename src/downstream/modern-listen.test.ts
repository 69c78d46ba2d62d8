import type { JSONRPCMessage } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { createModernListeners, type ListenSink } from './modern-listen.ts';

const ENVELOPE = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': {},
};
const TOOLS = { _meta: ENVELOPE, notifications: { toolsListChanged: true } };

function sink(): ListenSink & { got: JSONRPCMessage[]; ended: () => void; endedCount: number } {
  const out = {
    got: [] as JSONRPCMessage[],
    endedCount: 0,
    send: (message: JSONRPCMessage) => void out.got.push(message),
    ended: () => void (out.endedCount += 1),
  };
  return out;
}

const changes = (messages: JSONRPCMessage[]) =>
  messages.filter((m) => 'method' in m && m.method === 'notifications/tools/list_changed').length;

describe('createModernListeners', () => {
  it('keeps two clients whose listen requests share an id apart (the HTTP door holds every client)', () => {
    const listeners = createModernListeners();
    const alice = sink();
    const bob = sink();
    listeners.open(1, TOOLS, alice);
    const bobs = listeners.open(1, TOOLS, bob);
    listeners.notify('tools');
    expect(changes(alice.got)).toBe(1);
    expect(changes(bob.got)).toBe(1);
    // Bob's stream closing ends Bob's subscription only.
    if ('end' in bobs) bobs.end(false);
    listeners.notify('tools');
    expect(changes(alice.got)).toBe(2);
    expect(changes(bob.got)).toBe(1);
  });

  it('cancels by request id on a connection, and refuses past the limit', () => {
    const listeners = createModernListeners(2);
    const first = sink();
    listeners.open('a', TOOLS, first);
    listeners.open('b', TOOLS, sink());
    const refused = listeners.open('c', TOOLS, sink());
    expect('error' in refused && refused.error.message).toBe('Subscription limit reached');
    expect(listeners.cancel('a')).toBe(true);
    expect(listeners.cancel('a')).toBe(false);
    expect(first.endedCount).toBe(1);
    listeners.notify('tools');
    expect(changes(first.got)).toBe(0);
  });

  it('ends every subscription with its complete result on close', () => {
    const listeners = createModernListeners();
    const one = sink();
    listeners.open(7, TOOLS, one);
    listeners.closeAll();
    const last = one.got.at(-1) as { id?: unknown; result?: { resultType?: string } };
    expect(last.id).toBe(7);
    expect(last.result?.resultType).toBe('complete');
    expect(one.endedCount).toBe(1);
  });
});
