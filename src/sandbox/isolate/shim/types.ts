/**
 * The data that crosses between the host and the in-isolate shims: copied plain values, never host objects.
 * These are type-only declarations; the host side builds the same shapes (tool-runner.ts, host-ops.ts).
 */
import type { EgressResponse } from '../../egress/types.ts';
import type { HelperErrorData } from '../../runtime/host-ops.ts';

/** The reply of a synchronous host operation. */
export type HostReply<T> = { ok: true; value: T } | { ok: false; error: HelperErrorData };

/** The file grants visible to tool code. */
export interface FsGrant {
  workspace: string;
  readRoots: string[];
}

/** The per-call configuration the host places on the global object before the tool body runs. */
export interface RunConfig {
  args: { names: string[]; json: string };
  network: boolean;
  fs: FsGrant | null;
  maxConsoleEntries: number;
  consoleChars: number;
  errorChars: number;
  maxResultBytes: number;
}

/** The fields of a URL parsed by the host's WHATWG parser. */
export interface UrlFields {
  href: string;
  origin: string;
  protocol: string;
  username: string;
  password: string;
  host: string;
  hostname: string;
  port: string;
  pathname: string;
  search: string;
  hash: string;
}

/** What the host's fetch answers: the egress guard's response plus the ranged-read position. */
export type RawResponse = EgressResponse & { nextStartIndex: number | null };
