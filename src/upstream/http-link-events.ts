/**
 * A bounded reader of `text/event-stream` bodies, the framing both HTTP upstream links read (Streamable HTTP answers
 * and GET streams, the legacy SSE stream). It splits bytes into lines on CR, LF or CRLF (UTF-8 never puts those
 * bytes inside a character, so lines are cut before decoding), joins the `data:` lines of an event with LF, keeps
 * `event:` and `id:` (the last id stays the stream's resumption point), reports `retry:`, and skips comments and
 * unknown fields. One event, the line being read included, may hold at most `maxEventBytes`; past that the reader
 * stops for good and says so once, so neither a huge event nor a line that never ends can grow the gateway's memory
 * (only `data:` lines are kept, so only they add up; a comment or another field is bounded as one line).
 */

/** One dispatched event. */
export interface StreamEvent {
  /** The `event:` field, `message` when absent. */
  type: string;
  /** The `data:` lines joined with LF. */
  data: string;
  /** The stream's last event id when this event was dispatched (undefined before any `id:`). */
  id: string | undefined;
}

/** Where the events of an EventStreamReader go. */
export interface StreamEventSink {
  event(event: StreamEvent): void;
  /** The server's `retry:` advice, in milliseconds. */
  retry?(ms: number): void;
  /** The event being read passed the cap: the reader has stopped for good. */
  oversized(maxEventBytes: number): void;
}

const LF = 0x0a;
const CR = 0x0d;
const COLON = 0x3a;
const SPACE = 0x20;

/** Splits an event stream into events of at most `maxEventBytes` (see the file comment). */
export class EventStreamReader {
  readonly #maxEventBytes: number;
  readonly #sink: StreamEventSink;
  /** Pieces of the line being read, before its end of line. */
  #pending: Buffer[] = [];
  #pendingBytes = 0;
  /** Bytes the event being read holds: its complete `data:` lines so far (other lines are not kept). */
  #eventBytes = 0;
  #data: string[] = [];
  #type = '';
  #lastId: string | undefined;
  /** The last chunk ended with CR: an LF that starts the next one ends no second line. */
  #afterCr = false;
  #first = true;
  #stopped = false;

  constructor(maxEventBytes: number, sink: StreamEventSink) {
    this.#maxEventBytes = maxEventBytes;
    this.#sink = sink;
  }

  /** Whether the reader stopped (the cap was passed, or stop() was called). */
  get stopped(): boolean {
    return this.#stopped;
  }

  /** Reads a chunk; a sink callback may stop the reader, and then the rest of the chunk is dropped. */
  push(chunk: Uint8Array): void {
    let bytes = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    if (this.#first && bytes.length > 0) {
      this.#first = false;
      // A byte order mark may open the stream; it is not part of the first field name.
      if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) bytes = bytes.subarray(3);
    }
    let start = 0;
    if (this.#afterCr && bytes[0] === LF) start = 1;
    this.#afterCr = false;
    // The next LF and CR at or after `start`, each searched again only once passed: one scan of the chunk in all.
    let lf = bytes.indexOf(LF, start);
    let cr = bytes.indexOf(CR, start);
    while (!this.#stopped) {
      if (lf !== -1 && lf < start) lf = bytes.indexOf(LF, start);
      if (cr !== -1 && cr < start) cr = bytes.indexOf(CR, start);
      let at = lf === -1 ? cr : cr === -1 ? lf : Math.min(lf, cr);
      if (at === -1) break;
      if (!this.#line(bytes.subarray(start, at))) return;
      if (at === cr) {
        if (at + 1 === bytes.length) this.#afterCr = true;
        else if (bytes[at + 1] === LF) at++;
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
    this.#data = [];
  }

  /** Adds bytes to the line being read; false (the reader stopped) once the event is over the cap. */
  #take(bytes: Buffer): boolean {
    if (!this.#fits(this.#eventBytes + this.#pendingBytes + bytes.length)) return false;
    this.#pendingBytes += bytes.length;
    this.#pending.push(bytes);
    return true;
  }

  #fits(bytes: number): boolean {
    if (bytes <= this.#maxEventBytes) return true;
    this.stop();
    this.#sink.oversized(this.#maxEventBytes);
    return false;
  }

  /** Ends the line whose last piece is `tail`; false when the reader stopped. */
  #line(tail: Buffer): boolean {
    let line = tail;
    if (this.#pendingBytes > 0) {
      if (!this.#take(tail)) return false;
      line = Buffer.concat(this.#pending, this.#pendingBytes);
      this.#pending = [];
      this.#pendingBytes = 0;
    } else if (!this.#fits(this.#eventBytes + tail.length)) {
      return false;
    }
    if (line.length === 0) {
      this.#dispatch();
      return !this.#stopped;
    }
    if (line[0] === COLON) return true;
    const colon = line.indexOf(COLON);
    const name = (colon === -1 ? line : line.subarray(0, colon)).toString('latin1');
    let valueStart = colon === -1 ? line.length : colon + 1;
    if (line[valueStart] === SPACE) valueStart++;
    const value = line.toString('utf8', valueStart);
    switch (name) {
      case 'data':
        // The line's bytes and a joining newline: the data kept is never more than the bytes it came in.
        this.#eventBytes += line.length + 1;
        this.#data.push(value);
        break;
      case 'event':
        this.#type = value;
        break;
      case 'id':
        if (!value.includes('\0')) this.#lastId = value;
        break;
      case 'retry':
        if (/^[0-9]{1,9}$/.test(value)) this.#sink.retry?.(Number(value));
        break;
      default:
      // Unknown fields are ignored, as every event-stream reader must.
    }
    return true;
  }

  #dispatch(): void {
    const data = this.#data;
    const type = this.#type;
    this.#data = [];
    this.#type = '';
    this.#eventBytes = 0;
    if (data.length === 0) return;
    this.#sink.event({ type: type === '' ? 'message' : type, data: data.join('\n'), id: this.#lastId });
  }
}
