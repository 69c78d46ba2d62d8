/**
 * What `portcullis scan` reads besides portcullis.yaml: the MCP client configs people already have (Claude
 * Desktop, Cursor, Windsurf and Claude Code use `mcpServers`; VS Code uses `servers`, or `mcp.servers` in its
 * user settings) and tool-definition files (a `tools/list` result, a bare array, or `servers` by name).
 * Shapes only: turning a server entry into a validated upstream is scan-connect.ts's work.
 */
import type { Prompt, Resource, ResourceTemplateType, Tool } from '@modelcontextprotocol/client';
import { ScanInputError, type LocatedJson, type TextPosition } from './scan-json.ts';
import { isRecord } from '../shared/index.ts';

/** One server entry of a client config, in the upstream config's vocabulary (still unvalidated). */
export interface ClientServerEntry {
  /** The name the client config gives it. */
  name: string;
  /** `/mcpServers/<name>` or `/servers/<name>`: where it sits in the file. */
  pointer: string;
  position: TextPosition | undefined;
  disabled: boolean;
  /** An upstream document for the config loader, or why the entry cannot be one. */
  upstream: { document: Record<string, unknown> } | { problem: string };
}

/** Which family of client config a file is. */
export type ClientConfigShape = 'mcpServers' | 'vscode' | 'vscode-settings';

/** A server and its lists, read from a tools file (no connection). */
export interface OfflineServer {
  name: string;
  pointer: string;
  position: TextPosition | undefined;
  tools: { tool: Tool; pointer: string }[];
  rejected: { name: string; reason: string; pointer: string }[];
  prompts: Prompt[];
  resources: Resource[];
  resourceTemplates: ResourceTemplateType[];
  instructions?: string;
}

const escapeSegment = (key: string) => key.replace(/~/g, '~0').replace(/\//g, '~1');
const stringMap = (value: unknown): Record<string, string> | undefined =>
  isRecord(value) && Object.values(value).every((v) => typeof v === 'string')
    ? (value as Record<string, string>)
    : undefined;

/** Maps one client server entry to an upstream document (the keys portcullis.yaml uses). */
function toUpstreamDocument(
  entry: Record<string, unknown>,
): { document: Record<string, unknown> } | { problem: string } {
  const type = typeof entry.type === 'string' ? entry.type.toLowerCase() : undefined;
  // Windsurf spells a remote server's address `serverUrl`.
  const url =
    typeof entry.url === 'string'
      ? entry.url
      : typeof entry.serverUrl === 'string'
        ? entry.serverUrl
        : undefined;
  if (typeof entry.command === 'string' && (type === undefined || type === 'stdio')) {
    const args = entry.args;
    if (args !== undefined && !(Array.isArray(args) && args.every((a) => typeof a === 'string')))
      return { problem: '"args" must be an array of strings' };
    const env = entry.env === undefined ? undefined : stringMap(entry.env);
    if (entry.env !== undefined && env === undefined) return { problem: '"env" must map names to strings' };
    return {
      document: {
        transport: 'stdio',
        command: entry.command,
        ...(args === undefined ? {} : { args }),
        ...(env === undefined ? {} : { env }),
        ...(typeof entry.cwd === 'string' ? { cwd: entry.cwd } : {}),
      },
    };
  }
  if (url !== undefined) {
    const headers = entry.headers === undefined ? undefined : stringMap(entry.headers);
    if (entry.headers !== undefined && headers === undefined)
      return { problem: '"headers" must map names to strings' };
    return {
      document: {
        transport: type === 'sse' ? 'sse' : 'http',
        url,
        ...(headers === undefined ? {} : { headers }),
      },
    };
  }
  return { problem: 'neither a "command" (stdio) nor a "url" (http, sse)' };
}

/** Detects the client config family of a parsed file and lists its servers; throws ScanInputError otherwise. */
export function readClientConfig(
  file: LocatedJson,
  source: string,
): { shape: ClientConfigShape; servers: ClientServerEntry[] } {
  const root = file.value;
  const found: { shape: ClientConfigShape; base: string; servers: unknown } | undefined = !isRecord(root)
    ? undefined
    : root.mcpServers !== undefined
      ? { shape: 'mcpServers', base: '/mcpServers', servers: root.mcpServers }
      : root.servers !== undefined
        ? { shape: 'vscode', base: '/servers', servers: root.servers }
        : isRecord(root.mcp) && root.mcp.servers !== undefined
          ? { shape: 'vscode-settings', base: '/mcp/servers', servers: root.mcp.servers }
          : undefined;
  if (found === undefined)
    throw new ScanInputError(
      `${source}: not an MCP client config (expected "mcpServers", "servers" or "mcp.servers" at the top level)`,
    );
  if (!isRecord(found.servers))
    throw new ScanInputError(`${source}: "${found.base.slice(1).replace('/', '.')}" must be an object`);
  const servers = Object.entries(found.servers).map(([name, entry]): ClientServerEntry => {
    const pointer = `${found.base}/${escapeSegment(name)}`;
    return {
      name,
      pointer,
      position: file.positionOf(pointer),
      disabled: isRecord(entry) && entry.disabled === true,
      upstream: isRecord(entry)
        ? toUpstreamDocument(entry)
        : { problem: 'the server entry is not an object' },
    };
  });
  return { shape: found.shape, servers };
}

function listOf<T>(value: unknown, what: string, where: string): T[] {
  if (value === undefined) return [];
  if (!Array.isArray(value) || !value.every(isRecord))
    throw new ScanInputError(`${where}: "${what}" must be an array of objects`);
  return value as T[];
}

function readServer(
  file: LocatedJson,
  name: string,
  pointer: string,
  body: Record<string, unknown>,
  source: string,
  bare = false,
): OfflineServer {
  const where = `${source} ${pointer || '/'}`;
  const toolsPointer = bare ? pointer : `${pointer}/tools`;
  const entries: unknown = body.tools;
  if (!Array.isArray(entries)) throw new ScanInputError(`${where}: "tools" must be an array`);
  const tools: OfflineServer['tools'] = [];
  const rejected: OfflineServer['rejected'] = [];
  entries.forEach((entry, index) => {
    const at = `${toolsPointer}/${index}`;
    if (!isRecord(entry) || typeof entry.name !== 'string' || entry.name === '') {
      rejected.push({
        name: `#${index}`,
        reason: 'not an object with a non-empty string "name"',
        pointer: at,
      });
    } else if (entry.inputSchema !== undefined && !isRecord(entry.inputSchema)) {
      rejected.push({ name: entry.name, reason: '"inputSchema" is not an object', pointer: at });
    } else if (tools.some((t) => t.tool.name === entry.name)) {
      rejected.push({ name: entry.name, reason: 'repeats the name of an earlier tool', pointer: at });
    } else {
      tools.push({ tool: { inputSchema: { type: 'object' }, ...entry } as Tool, pointer: at });
    }
  });
  const instructions = body.instructions;
  if (instructions !== undefined && typeof instructions !== 'string')
    throw new ScanInputError(`${where}: "instructions" must be a string`);
  return {
    name,
    pointer,
    position: file.positionOf(pointer),
    tools,
    rejected,
    prompts: listOf<Prompt>(body.prompts, 'prompts', where),
    resources: listOf<Resource>(body.resources, 'resources', where),
    resourceTemplates: listOf<ResourceTemplateType>(body.resourceTemplates, 'resourceTemplates', where),
    ...(instructions === undefined ? {} : { instructions }),
  };
}

/**
 * Reads a tools file: `{ tools: [...] }` (a tools/list result, optionally with prompts, resources and
 * instructions beside it), a bare array of tools, or `{ servers: { name: { tools, prompts?, resources?,
 * resourceTemplates?, instructions? } } }`. A single list is named after `defaultName`.
 */
export function readToolsFile(file: LocatedJson, source: string, defaultName: string): OfflineServer[] {
  const root = file.value;
  if (Array.isArray(root)) return [readServer(file, defaultName, '', { tools: root }, source, true)];
  if (isRecord(root) && isRecord(root.servers))
    return Object.entries(root.servers).map(([name, body]) => {
      const pointer = `/servers/${escapeSegment(name)}`;
      if (!isRecord(body)) throw new ScanInputError(`${source} ${pointer}: a server must be an object`);
      return readServer(file, name, pointer, body, source);
    });
  if (isRecord(root) && root.tools !== undefined) return [readServer(file, defaultName, '', root, source)];
  throw new ScanInputError(
    `${source}: not a tools file (expected an array of tools, { "tools": [...] } or { "servers": {...} })`,
  );
}
