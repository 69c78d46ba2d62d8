/**
 * Newline-delimited JSON-RPC, the stdio framing of both hops (the `portcullis stdio` server wire and the stdio
 * upstream links): lines read under a per-line byte cap, a trailing CR dropped, blank lines and lines that are not
 * JSON skipped (as the SDK's stdio transports skip them), messages of the common shapes taken without zod
 * (json-rpc-shape.ts) and anything unusual read by the SDK's schema. Writes are corked once per event-loop turn.
 */
import type { Writable } from 'node:stream';
import type { JSONRPCMessage } from '@modelcontextprotocol/server';
import { plainMessage, readJsonRpcMessage } from './json-rpc-shape.ts';

/** Where the lines of a JsonLineReader go. */
export interface JsonLineSink {
  /** A line that holds a JSON-RPC message. */
  message(message: JSONRPCMessage): void;
  /** A line that is JSON but not a JSON-RPC message (skipped). */
  notJsonRpc(): void;
  /** The line being read passed `maxLineBytes`: the reader has stopped for good (the stream cannot be resynchronised). */
  oversized(maxLineBytes: number): void;
}

const NEWLINE = 0x0a;
const CR = 0x0d;

/** Splits a byte stream into lines of at most `maxLineBytes` and hands their messages to the sink. */
export class JsonLineReader {
  readonly #maxLineBytes: number;
  readonly #sink: JsonLineSink;
  /** The bytes of the line being read, before its newline. */
  #pending: Buffer[] = [];
  #pendingBytes = 0;
  #stopped = false;

  constructor(maxLineBytes: number, sink: JsonLineSink) {
    this.#maxLineBytes = maxLineBytes;
    this.#sink = sink;
  }

  /** Reads a chunk; a sink callback may stop the reader, and then the rest of the chunk is dropped. */
  push(chunk: Buffer | string): void {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    let start = 0;
    for (let at = bytes.indexOf(NEWLINE); at !== -1 && !this.#stopped; at = bytes.indexOf(NEWLINE, start)) {
      if (this.#pendingBytes === 0) {
        // The whole line is in this chunk: it is read where it lies, without a copy.
        if (!this.#fits(at - start)) return;
        this.#receive(bytes, start, at);
      } else {
        if (!this.#take(bytes.subarray(start, at))) return;
        const parts = this.#pending;
        this.#pending = [];
        this.#pendingBytes = 0;
        const line = parts.length === 1 ? (parts[0] as Buffer) : Buffer.concat(parts);
        this.#receive(line, 0, line.length);
      }
      start = at + 1;
    }
    if (!this.#stopped && start < bytes.length) this.#take(bytes.subarray(start));
  }

  /** Drops what is buffered and ignores every later chunk. */
  stop(): void {
    this.#stopped = true;
    this.#pending = [];
    this.#pendingBytes = 0;
  }

  /** Adds bytes to the line being read; false (the reader stopped) once the line is over the cap. */
  #take(bytes: Buffer): boolean {
    if (!this.#fits(this.#pendingBytes + bytes.length)) return false;
    this.#pendingBytes += bytes.length;
    if (bytes.length > 0) this.#pending.push(bytes);
    return true;
  }

  /** Whether a line of `lineBytes` is within the cap; past it the reader stops and the sink is told. */
  #fits(lineBytes: number): boolean {
    if (lineBytes <= this.#maxLineBytes) return true;
    this.stop();
    this.#sink.oversized(this.#maxLineBytes);
    return false;
  }

  /** Reads the line `bytes[start, end)`. */
  #receive(bytes: Buffer, start: number, end: number): void {
    const last = end > start && bytes[end - 1] === CR ? end - 1 : end;
    let value: unknown;
    try {
      value = JSON.parse(bytes.toString('utf8', start, last));
    } catch {
      // As the SDK's stdio transports: a line that is not JSON (a stray log line, a blank one) is skipped.
      return;
    }
    const message = plainMessage(value) ?? readJsonRpcMessage(value);
    if (message === undefined) this.#sink.notJsonRpc();
    else this.#sink.message(message);
  }
}

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
