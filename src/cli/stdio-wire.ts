/**
 * The stdio wire of `portcullis stdio`, the gateway's own: newline-delimited JSON-RPC on stdin/stdout under a
 * per-line byte cap, messages of the common shapes read without zod (http's json-rpc-shape.ts; anything unusual
 * goes to the SDK's schema), and the messages sent during one turn of the event loop leave stdout in one write.
 * Under concurrency a turn often finishes several calls, and each pipe write wakes the reading client; a lone
 * answer waits only until the promise continuations of its turn have run, so it leaves before anything the turn
 * deferred with setImmediate (such as telemetry). What the SDK's StdioServerTransport does otherwise is kept:
 * a line that is not JSON is skipped, one that is not JSON-RPC is reported and skipped, a line over the cap
 * closes the connection, and stdin's end closes it.
 */
import type { Readable, Writable } from 'node:stream';
import {
  STDIO_DEFAULT_MAX_BUFFER_SIZE,
  type JSONRPCMessage,
  type Transport,
} from '@modelcontextprotocol/server';
import { answerBytes, plainMessage, readJsonRpcMessage } from '../http/index.ts';

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

const NEWLINE = 0x0a;

/** The stdio transport of `portcullis stdio` (see the file comment). */
export class StdioWire implements Transport {
  onclose?: (() => void) | undefined;
  onerror?: ((error: Error) => void) | undefined;
  onmessage?: Transport['onmessage'];

  readonly #stdin: Readable;
  readonly #stdout: Writable;
  readonly #maxLineBytes: number;
  readonly #corkTurn: () => void;
  /** The bytes of the line being read, before its newline. */
  #pending: Buffer[] = [];
  #pendingBytes = 0;
  #started = false;
  #closed = false;

  constructor(
    stdin: Readable = process.stdin,
    stdout: Writable = process.stdout,
    maxLineBytes = STDIO_DEFAULT_MAX_BUFFER_SIZE,
  ) {
    this.#stdin = stdin;
    this.#stdout = stdout;
    this.#maxLineBytes = maxLineBytes;
    this.#corkTurn = corkUntilEndOfTurn(stdout);
  }

  async start(): Promise<void> {
    if (this.#started) throw new Error('StdioWire already started');
    this.#started = true;
    if (this.#stdin.readableEnded || this.#stdin.destroyed) setImmediate(this.#onEnd);
    this.#stdin.on('data', this.#onData);
    this.#stdin.on('error', this.#onError);
    this.#stdin.on('end', this.#onEnd);
    this.#stdin.on('close', this.#onEnd);
    this.#stdout.on('error', this.#onStdoutError);
  }

  send(message: JSONRPCMessage): Promise<void> {
    if (this.#closed) return Promise.reject(new Error('StdioWire is closed'));
    this.#corkTurn();
    // A tool list's array keeps its UTF-8 JSON until the registry rebuilds.
    if (this.#stdout.write(answerBytes(message, '\n'))) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const drained = () => {
        this.#stdout.off('error', failed);
        resolve();
      };
      const failed = (error: Error) => {
        this.#stdout.off('drain', drained);
        reject(error);
      };
      this.#stdout.once('drain', drained);
      this.#stdout.once('error', failed);
    });
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#stdin.off('data', this.#onData);
    this.#stdin.off('error', this.#onError);
    this.#stdin.off('end', this.#onEnd);
    this.#stdin.off('close', this.#onEnd);
    // Late write failures after close have no one to report to.
    this.#stdout.off('error', this.#onStdoutError);
    this.#stdout.on('error', () => {});
    if (this.#stdin.listenerCount('data') === 0) this.#stdin.pause();
    this.#pending = [];
    this.#pendingBytes = 0;
    this.onclose?.();
  }

  readonly #onData = (chunk: Buffer | string) => {
    let bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    for (let at = bytes.indexOf(NEWLINE); at !== -1 && !this.#closed; at = bytes.indexOf(NEWLINE)) {
      if (!this.#take(bytes.subarray(0, at))) return;
      const parts = this.#pending;
      this.#pending = [];
      this.#pendingBytes = 0;
      this.#receive(parts.length === 1 ? (parts[0] as Buffer) : Buffer.concat(parts));
      bytes = bytes.subarray(at + 1);
    }
    if (!this.#closed && bytes.length > 0) this.#take(bytes);
  };

  /** Adds bytes to the line being read; false (the connection closing) once the line is over the cap. */
  #take(bytes: Buffer): boolean {
    this.#pendingBytes += bytes.length;
    if (this.#pendingBytes > this.#maxLineBytes) {
      this.onerror?.(new Error(`a stdio message exceeds the maximum size of ${this.#maxLineBytes} bytes`));
      void this.close();
      return false;
    }
    if (bytes.length > 0) this.#pending.push(bytes);
    return true;
  }

  #receive(line: Buffer): void {
    let text = line.toString('utf8');
    if (text.endsWith('\r')) text = text.slice(0, -1);
    if (text.trim() === '') return;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      // As the SDK's transport: a line that is not JSON is skipped.
      return;
    }
    const message = plainMessage(value) ?? readJsonRpcMessage(value);
    if (message === undefined) {
      this.onerror?.(new Error('a stdio line is not a JSON-RPC message'));
      return;
    }
    this.onmessage?.(message);
  }

  readonly #onError = (error: Error) => {
    this.onerror?.(error);
  };

  readonly #onEnd = () => {
    void this.close();
  };

  readonly #onStdoutError = (error: Error) => {
    if (this.#closed) return;
    this.onerror?.(error);
    void this.close();
  };
}
