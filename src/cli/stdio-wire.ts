/**
 * The stdio wire of `portcullis stdio`, the gateway's own: newline-delimited JSON-RPC on stdin/stdout under a
 * per-line byte cap, messages of the common shapes read without zod (the line reader of shared/json-lines.ts,
 * which the stdio upstream links use too; anything unusual goes to the SDK's schema), and the messages sent during
 * one turn of the event loop leave stdout in one write.
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
import { answerChunk } from '../http/index.ts';
import { corkUntilEndOfTurn, JsonLineReader } from '../shared/index.ts';

/** The stdio transport of `portcullis stdio` (see the file comment). */
export class StdioWire implements Transport {
  onclose?: (() => void) | undefined;
  onerror?: ((error: Error) => void) | undefined;
  onmessage?: Transport['onmessage'];

  readonly #stdin: Readable;
  readonly #stdout: Writable;
  readonly #reader: JsonLineReader;
  readonly #corkTurn: () => void;
  #started = false;
  #closed = false;

  constructor(
    stdin: Readable = process.stdin,
    stdout: Writable = process.stdout,
    maxLineBytes = STDIO_DEFAULT_MAX_BUFFER_SIZE,
  ) {
    this.#stdin = stdin;
    this.#stdout = stdout;
    this.#reader = new JsonLineReader(maxLineBytes, {
      message: (message) => this.onmessage?.(message),
      notJsonRpc: () => this.onerror?.(new Error('a stdio line is not a JSON-RPC message')),
      oversized: (limit) => {
        this.onerror?.(new Error(`a stdio message exceeds the maximum size of ${limit} bytes`));
        void this.close();
      },
    });
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
    if (this.#stdout.write(answerChunk(message, '\n'))) return Promise.resolve();
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
    this.#reader.stop();
    this.onclose?.();
  }

  readonly #onData = (chunk: Buffer | string) => {
    this.#reader.push(chunk);
  };

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
