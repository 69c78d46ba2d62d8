import { SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/server';

/**
 * The MCP protocol era a session or connection speaks: `legacy` is the 2025 protocol (initialize handshake,
 * sessions), `modern` the 2026 one (stateless requests, `requestState`). Each era has its own call path.
 */
export type Era = 'legacy' | 'modern';

/** The 2026-era protocol revision the gateway speaks (every modern revision sorts at or after it). */
export const MODERN_PROTOCOL_VERSION = '2026-07-28';

/** The 2025-era protocol versions the SDK lists, newest first: the one list every 2025-era hop offers and accepts. */
export const LEGACY_PROTOCOL_VERSIONS: readonly string[] = SUPPORTED_PROTOCOL_VERSIONS.filter(
  (v) => v < MODERN_PROTOCOL_VERSION,
);
