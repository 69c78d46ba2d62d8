/**
 * The effective sandbox policy a tool runs under: the output of the spec resolver (spec/), the input of the
 * runtime (sandbox/). Plain data only.
 */

/** Network egress mode after normalization (lower-cased, validated once). */
export type NetworkMode = 'blocked' | 'allowlist' | 'strict' | 'open';

/** Resource limits of one tool run. */
export interface SandboxLimits {
  /** V8 heap cap of the isolate, in MiB. */
  memoryMb: number;
  /** CPU-time budget of one call, in ms (stands in for the spec's statement limit, which V8 cannot count). */
  cpuTimeMs: number;
  /** Wall-clock deadline of one call, in ms; also ends code that awaits forever. */
  wallTimeMs: number;
  /** Maximum size of the serialized result, in bytes. */
  maxResultBytes: number;
  /** Maximum number of captured console entries. */
  maxConsoleEntries: number;
  /** Maximum response body of one fetch, in bytes. */
  maxFetchBytes: number;
}

/** The enforced posture of one tool. */
export interface SandboxPolicy {
  networkMode: NetworkMode;
  /** Host patterns (`example.com`, `*.example.com`, `*`); used in allowlist mode. */
  hostsAllow: string[];
  fileRead: boolean;
  fileWrite: boolean;
  /** Confines safety.fs to this directory (workspace = read root); null uses the gateway's workspace. */
  fsBasePath: string | null;
  /** Allows safety.fs move/delete/deleteDir. */
  destructive: boolean;
  /**
   * Hands secrets to tool code as plaintext instead of handles (a spec's `sandboxOverrides.secretsInCode`);
   * absent means false.
   */
  secretsInCode?: boolean;
  limits: SandboxLimits;
}
