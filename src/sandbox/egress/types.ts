/** The plain data the egress guard takes and returns. */
import type { NetworkMode } from '../policy.ts';
import type { SecretVault } from './secret-vault.ts';

/** One address a hostname resolved to. */
export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** Resolves a hostname to every address it has; the default uses the system resolver. */
export type Resolver = (hostname: string) => Promise<ResolvedAddress[]>;

/** The part of a sandbox policy the guard enforces. */
export interface EgressPolicy {
  networkMode: NetworkMode;
  hostsAllow: readonly string[];
  /** Response body cap, in bytes, enforced while streaming. */
  maxFetchBytes: number;
}

/** A checked destination: the URL and the exact address the connection must go to (DNS pinning). */
export interface EgressTarget {
  url: URL;
  /** The hostname without IPv6 brackets (used for the Host header and TLS SNI). */
  hostname: string;
  address: ResolvedAddress;
}

/** One outbound request as the sandbox describes it. */
export interface EgressRequest {
  url: string;
  method?: string;
  /** Header pairs in order; restricted and hop-by-hop headers are dropped. */
  headers?: ReadonlyArray<readonly [string, string]>;
  body?: Uint8Array | string | null;
  /** Returns at most this many body bytes (clamped to the policy cap); more sets `truncated`. */
  maxLength?: number;
  /** Skips this many body bytes before collecting. */
  startIndex?: number;
  signal?: AbortSignal;
  /**
   * The run's secret handles: revealed in the URL path and query, headers and body only for a host the
   * allowlist names, and concealed again in the response and in error messages.
   */
  secrets?: SecretVault;
}

/** The buffered outcome of one fetch after redirects. */
export interface EgressResponse {
  status: number;
  statusText: string;
  /** The final URL after redirects. */
  url: string;
  redirected: boolean;
  /** Lower-cased header names; repeated headers joined with `, `. */
  headers: Array<[string, string]>;
  contentType: string | null;
  body: Uint8Array;
  /** True when the body was cut at the cap and the connection closed early. */
  truncated: boolean;
  /** Where a follow-up request should start (`startIndex`) when truncated, else null. */
  nextStartIndex: number | null;
}
