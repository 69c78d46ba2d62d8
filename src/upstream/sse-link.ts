/**
 * The gateway's own client transport for the 2024-11-05 HTTP+SSE transport (`transport: sse`). start() GETs the
 * event stream and waits for its `endpoint` event; the endpoint is resolved against the stream's URL and refused
 * when it names another origin (configured headers go only to the configured origin). Messages are POSTed to the
 * endpoint and arrive as `message` events on the stream, read by http-link-events.ts under `maxMessageBytes` per
 * event (over it: HttpMessageTooLarge, the link is dropped with reason `message-too-large`). The stream is the
 * session: when it ends or breaks the link closes, and the supervisor reconnects with a new handshake (a silently
 * re-opened stream would be a new session the server never initialised). close() aborts the stream and every POST
 * in flight.
 */
import { SdkError, SdkErrorCode, type JSONRPCMessage, type Transport } from '@modelcontextprotocol/client';
import { EventStreamReader } from './http-link-events.ts';
import {
  configuredHeaders,
  connectionClosed,
  DEFAULT_MAX_MESSAGE_BYTES,
  discard,
  HttpMessageTooLarge,
  httpError,
  linkFetch,
  mediaType,
  notJsonRpc,
  readMessages,
} from './http-link-support.ts';

/** Where to connect and how. */
export interface SseLinkOptions {
  /** The URL of the event stream. */
  url: URL;
  /** Sent on every request, the stream's GET included. */
  headers: Readonly<Record<string, string>>;
  /** The cap on one incoming event, in bytes. */
  maxMessageBytes?: number;
}

/** A legacy HTTP+SSE client transport (see the file comment). */
export class SseLink implements Transport {
  onclose?: (() => void) | undefined;
  onerror?: ((error: Error) => void) | undefined;
  onmessage?: Transport['onmessage'];

  readonly #options: SseLinkOptions;
  readonly #maxMessageBytes: number;
  readonly #lifetime = new AbortController();
  #endpoint: URL | undefined;
  #protocolVersion: string | undefined;
  #started = false;
  #closed = false;

  constructor(options: SseLinkOptions) {
    this.#options = options;
    this.#maxMessageBytes = options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES;
  }

  setProtocolVersion(version: string): void {
    this.#protocolVersion = version;
  }

  async start(): Promise<void> {
    if (this.#started) throw new Error('SseLink already started');
    this.#started = true;
    const { url } = this.#options;
    const headers = this.#headers();
    headers.set('accept', 'text/event-stream');
    let response: Response;
    try {
      response = await linkFetch(url, { method: 'GET', headers, signal: this.#lifetime.signal });
    } catch (error) {
      throw this.#closed ? connectionClosed() : error;
    }
    if (!response.ok) {
      throw await httpError(
        SdkErrorCode.ClientHttpFailedToOpenStream,
        'the upstream (SSE stream)',
        url,
        response,
      );
    }
    if (mediaType(response) !== 'text/event-stream') {
      await discard(response);
      throw new SdkError(
        SdkErrorCode.ClientHttpUnexpectedContent,
        `the upstream answered its SSE stream with ${mediaType(response) ?? 'no content type'}, not an event stream: is the URL the server's SSE endpoint?`,
      );
    }
    await new Promise<void>((resolve, reject) => {
      void this.#read(response, resolve, reject);
    });
  }

  async send(message: JSONRPCMessage): Promise<void> {
    const endpoint = this.#endpoint;
    if (!endpoint || this.#closed) throw new SdkError(SdkErrorCode.NotConnected, 'Not connected');
    const body = JSON.stringify(message);
    const headers = this.#headers();
    headers.set('content-type', 'application/json');
    try {
      const response = await linkFetch(endpoint, {
        method: 'POST',
        headers,
        body,
        signal: this.#lifetime.signal,
      });
      if (!response.ok) {
        const what = `the upstream (POST ${'method' in message ? message.method : 'response'})`;
        throw await httpError(SdkErrorCode.ClientHttpNotImplemented, what, endpoint, response);
      }
      // The answer comes on the stream; the POST's own body says nothing the link needs.
      await discard(response);
    } catch (error) {
      if (this.#closed) throw connectionClosed();
      this.onerror?.(error as Error);
      throw error;
    }
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#lifetime.abort();
    this.onclose?.();
  }

  #headers(): Headers {
    const headers = configuredHeaders(this.#options.headers);
    if (this.#protocolVersion !== undefined) headers.set('mcp-protocol-version', this.#protocolVersion);
    return headers;
  }

  /**
   * Reads the stream to its end: `opened` once the endpoint is known, `failed` when the stream ends or is refused
   * before that; afterwards its end closes the link.
   */
  async #read(response: Response, opened: () => void, failed: (error: Error) => void): Promise<void> {
    let refused: Error | undefined;
    const reader = new EventStreamReader(this.#maxMessageBytes, {
      event: (event) => {
        if (event.type === 'endpoint') {
          if (this.#endpoint === undefined) refused = this.#adoptEndpoint(event.data);
          if (refused === undefined) opened();
          return;
        }
        if (event.type !== 'message' || this.#endpoint === undefined) return;
        try {
          const { messages, invalid } = readMessages(event.data);
          for (const message of messages) this.onmessage?.(message);
          if (invalid > 0) this.onerror?.(notJsonRpc(invalid));
        } catch (error) {
          this.onerror?.(error as Error);
        }
      },
      oversized: (limit) => {
        refused = new HttpMessageTooLarge(limit);
      },
    });
    const body = response.body?.getReader();
    let broken: unknown;
    try {
      for (;;) {
        const chunk = await body?.read();
        if (!chunk || chunk.done) break;
        reader.push(chunk.value);
        if (reader.stopped || refused) break;
      }
    } catch (error) {
      broken = error;
    } finally {
      await body?.cancel().catch(() => {});
    }
    if (this.#closed) {
      failed(connectionClosed());
      return;
    }
    const error =
      refused ??
      new Error(
        broken === undefined
          ? 'the upstream ended its SSE stream; the link was closed'
          : `the upstream's SSE stream broke off (${(broken as Error).message ?? broken}); the link was closed`,
      );
    this.onerror?.(error);
    failed(error);
    await this.close();
  }

  /** Takes the endpoint an `endpoint` event names; the error when it is unusable. */
  #adoptEndpoint(data: string): Error | undefined {
    const base = this.#options.url;
    let endpoint: URL;
    try {
      endpoint = new URL(data, base);
    } catch {
      return new Error('the upstream sent an SSE endpoint that is not a URL');
    }
    if (endpoint.origin !== base.origin) {
      return new Error(
        `the upstream sent an SSE endpoint on another origin (${endpoint.origin}, not ${base.origin}); it is refused, so that the configured headers go nowhere else`,
      );
    }
    this.#endpoint = endpoint;
    return undefined;
  }
}
