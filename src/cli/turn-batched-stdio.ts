/**
 * The stdio server transport of `portcullis stdio`, with one change: the messages sent during one turn of the
 * event loop leave stdout in one write. Under concurrency a turn often finishes several calls, and each pipe
 * write wakes the reading client; a lone answer waits only until the promise continuations of its turn have
 * run, so it leaves before anything the turn deferred with setImmediate (such as telemetry).
 */
import type { Readable, Writable } from 'node:stream';
import { StdioServerTransport } from '@modelcontextprotocol/server/stdio';
import type { JSONRPCMessage } from '@modelcontextprotocol/server';

/**
 * Corks `stream` until the current callback and all its promise continuations are done (a nextTick queued from
 * a continuation runs once the microtask queue is empty), once per turn however many writes it gets.
 */
export function corkUntilEndOfTurn(stream: Writable): () => void {
  let corked = false;
  const uncork = () => {
    corked = false;
    stream.uncork();
  };
  return () => {
    if (corked) return;
    corked = true;
    stream.cork();
    process.nextTick(uncork);
  };
}

/** A StdioServerTransport whose sends are coalesced per event-loop turn. */
export class TurnBatchedStdioServerTransport extends StdioServerTransport {
  private readonly corkTurn: () => void;

  constructor(stdin: Readable = process.stdin, stdout: Writable = process.stdout) {
    super(stdin, stdout);
    this.corkTurn = corkUntilEndOfTurn(stdout);
  }

  override send(message: JSONRPCMessage): Promise<void> {
    this.corkTurn();
    return super.send(message);
  }
}
