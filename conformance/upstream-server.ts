/**
 * The conformance fixture as a stdio MCP server, the upstream the gateway is placed in front of. It serves
 * both protocol eras (the opening exchange picks one), so the gateway's era negotiation decides.
 * Run with: node --import tsx conformance/upstream-server.ts
 */
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { createFixtureServer } from './fixture-server.ts';

serveStdio(() => createFixtureServer());
