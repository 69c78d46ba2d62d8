/**
 * The gateway's own stdio client transport for upstream links: it spawns the configured command (no shell, exactly
 * the environment it is given) and speaks newline-delimited JSON-RPC on the child's stdin/stdout with the line
 * reader both stdio hops share (shared/json-lines.ts: a per-line byte cap, no zod for the common shapes, writes
 * corked once per event-loop turn). A line that is not JSON is skipped, one that is not JSON-RPC is reported and
 * skipped, and a line over the cap is reported as StdioMessageTooLarge and closes the link. The child's end (its
 * `close`: stdout read to the end) or a failed write to its stdin closes the transport, once. close() ends stdin,
 * then sends SIGTERM and later SIGKILL to a child that is still running, with the grace of the SDK's transport. A
 * child that stops reading its stdin may leave at most DEFAULT_MAX_UNREAD_BYTES waiting; the next send past that
 * drops the link.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { PassThrough } from 'node:stream';
import {
  SdkError,
  SdkErrorCode,
  STDIO_DEFAULT_MAX_BUFFER_SIZE,
  type JSONRPCMessage,
  type Transport,
} from '@modelcontextprotocol/client';
import { corkUntilEndOfTurn, JsonLineReader } from '../shared/index.ts';
import type { OrphanWatchdog } from './orphan-watchdog.ts';
import { UpstreamMessageTooLarge } from './message-too-large.ts';

/** How long close() waits for the child after ending its stdin, and again after SIGTERM (as the SDK's transport). */
export const CLOSE_GRACE_MS = 2_000;

/** A stdio upstream sent a line longer than the link's cap; the link cannot be resynchronised and is dropped. */
export class StdioMessageTooLarge extends UpstreamMessageTooLarge {
  constructor(limit: number) {
    super(limit, 'stdio');
    this.name = 'StdioMessageTooLarge';
  }
}

/** What to spawn and how. */
export interface StdioLinkOptions {
  command: string;
  args: readonly string[];
  /** The child's whole environment: nothing else is inherited. */
  env: Record<string, string>;
  cwd?: string;
  /** Told the child's pid once spawned and again once it exited. */
  watchdog?: OrphanWatchdog;
  /** The cap on one incoming line, in bytes. */
  maxLineBytes?: number;
  /** The most bytes that may wait for the child to read them (default DEFAULT_MAX_UNREAD_BYTES). */
  maxUnreadBytes?: number;
}

/**
 * Bytes that may wait in the gateway for a child to read them. Past this the child has stopped reading its input,
 * and what the gateway sends it would only grow the gateway's memory: the link is dropped.
 */
export const DEFAULT_MAX_UNREAD_BYTES = 64 * 1024 * 1024;

/** A JSON-RPC transport over a child process's stdin/stdout (see the file comment). */
export class StdioLink implements Transport {
  onclose?: (() => void) | undefined;
  onerror?: ((error: Error) => void) | undefined;
  onmessage?: Transport['onmessage'];

  /** The child's stderr, available before start() so that no early line is lost. */
  readonly stderr = new PassThrough();

  readonly #options: StdioLinkOptions;
  readonly #reader: JsonLineReader;
  #child: ChildProcess | undefined;
  #corkTurn: (() => void) | undefined;
  /** Sends waiting for the child's stdin to drain. */
  #blocked: { resolve: () => void; reject: (error: Error) => void }[] = [];
  #closing: Promise<void> | undefined;
  #ended = false;

  constructor(options: StdioLinkOptions) {
    this.#options = options;
    this.#reader = new JsonLineReader(options.maxLineBytes ?? STDIO_DEFAULT_MAX_BUFFER_SIZE, {
      message: (message) => this.onmessage?.(message),
      notJsonRpc: () => this.onerror?.(new Error('an upstream stdio line is not a JSON-RPC message')),
      oversized: (limit) => {
        this.onerror?.(new StdioMessageTooLarge(limit));
        void this.close();
      },
    });
  }

  /** The child's pid once spawned, else null. */
  get pid(): number | null {
    return this.#child?.pid ?? null;
  }

  start(): Promise<void> {
    if (this.#child) return Promise.reject(new Error('StdioLink already started'));
    const { command, args, env, cwd, watchdog } = this.#options;
    const child = spawn(command, [...args], {
      env,
      stdio: ['pipe', 'pipe', 'pipe'],
      shell: false,
      windowsHide: true,
      ...(cwd === undefined ? {} : { cwd }),
    });
    this.#child = child;
    const stdin = child.stdin;
    this.#corkTurn = corkUntilEndOfTurn(stdin);
    stdin.on('drain', () => this.#release());
    stdin.on('error', (error) => {
      // EPIPE and the like: the child stopped reading, so nothing more can be said to it. While closing, a failed
      // write or end is expected and no news.
      if (this.#ended || this.#closing) return;
      this.onerror?.(error);
      void this.close();
    });
    child.stdout.on('data', (chunk: Buffer) => this.#reader.push(chunk));
    child.stdout.on('error', (error) => this.onerror?.(error));
    child.stderr.pipe(this.stderr);
    child.on('close', () => this.#end());
    return new Promise((resolve, reject) => {
      child.once('spawn', () => {
        if (watchdog && child.pid !== undefined) {
          const pid = child.pid;
          watchdog.watch(pid);
          child.once('exit', () => watchdog.unwatch(pid));
        }
        resolve();
      });
      child.on('error', (error) => {
        reject(error);
        this.onerror?.(error);
      });
    });
  }

  send(message: JSONRPCMessage): Promise<void> {
    const stdin = this.#child?.stdin;
    if (!stdin || this.#closing || this.#ended) {
      return Promise.reject(new SdkError(SdkErrorCode.NotConnected, 'Not connected'));
    }
    let line: string;
    try {
      line = `${JSON.stringify(message)}\n`;
    } catch (error) {
      // Arguments JSON cannot hold (a cycle, a bigint): this send alone fails.
      return Promise.reject(error);
    }
    const cap = this.#options.maxUnreadBytes ?? DEFAULT_MAX_UNREAD_BYTES;
    // A UTF-16 code unit is at most 3 UTF-8 bytes: the exact count is needed only near the cap.
    const waiting = stdin.writableLength;
    if (waiting + line.length * 3 > cap && waiting + Buffer.byteLength(line) > cap) {
      const why = `the upstream stopped reading its input: more than ${cap} bytes would wait unread; the link was dropped`;
      this.onerror?.(new Error(why));
      void this.close();
      return Promise.reject(new SdkError(SdkErrorCode.ConnectionClosed, why));
    }
    this.#corkTurn?.();
    if (stdin.write(line)) return Promise.resolve();
    return new Promise((resolve, reject) => this.#blocked.push({ resolve, reject }));
  }

  close(): Promise<void> {
    this.#closing ??= this.#shutdown();
    return this.#closing;
  }

  async #shutdown(): Promise<void> {
    this.#reader.stop();
    const child = this.#child;
    if (child && !this.#ended && running(child)) {
      const ended = new Promise<void>((resolve) => child.once('close', () => resolve()));
      try {
        child.stdin?.end();
      } catch {
        // A stdin already gone is as good as ended.
      }
      await within(ended, CLOSE_GRACE_MS);
      if (running(child)) {
        child.kill('SIGTERM');
        await within(ended, CLOSE_GRACE_MS);
      }
      if (running(child)) child.kill('SIGKILL');
    }
    this.#end();
  }

  /** The transport's end, once: what still waits fails, and onclose is told. */
  #end(): void {
    if (this.#ended) return;
    this.#ended = true;
    this.#reader.stop();
    const blocked = this.#blocked;
    this.#blocked = [];
    const error = new SdkError(SdkErrorCode.ConnectionClosed, 'Connection closed');
    for (const waiter of blocked) waiter.reject(error);
    this.onclose?.();
  }

  #release(): void {
    const blocked = this.#blocked;
    this.#blocked = [];
    for (const waiter of blocked) waiter.resolve();
  }
}

const running = (child: ChildProcess) => child.exitCode === null && child.signalCode === null;

/** Resolves when `promise` settles or after `ms`, whichever comes first (the timer does not hold the process). */
function within(promise: Promise<void>, ms: number): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    timer.unref();
    void promise.then(() => {
      clearTimeout(timer);
      resolve();
    });
  });
}
