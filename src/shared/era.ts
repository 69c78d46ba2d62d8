/**
 * The MCP protocol era a session or connection speaks: `legacy` is the 2025 protocol (initialize handshake,
 * sessions), `modern` the 2026 one (stateless requests, `requestState`). Each era has its own call path.
 */
export type Era = 'legacy' | 'modern';
