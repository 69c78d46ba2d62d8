/**
 * Fetches an upstream's tools/list and checks each tool on its own: the SDK's listTools() rejects the whole list
 * when one entry is malformed, which would hide every tool of the server. A malformed entry, or a second tool of
 * a name already listed, is held back with a reason; the rest are kept. A list longer than the upstream's
 * `maxTools` is refused whole.
 */
import { specTypeSchemas, type Tool } from '@modelcontextprotocol/client';
import { PortcullisError } from '../errors/index.ts';
import type { RejectedTool } from './types.ts';

/** Pages of tools/list followed at most (a cursor loop must end). */
const MAX_PAGES = 100;
/** Tools an upstream may list when its configuration does not say (governing each costs time on every rebuild). */
export const DEFAULT_MAX_TOOLS = 1000;
/** Longest tool name kept in a rejection report. */
const MAX_NAME_CHARS = 128;

/** Fetches one page of tools/list (the first without a cursor) and resolves with its unchecked result. */
export type ToolPageFetch = (cursor: string | undefined) => Promise<unknown>;

/** The upstream's valid tools, in listed order, and the entries held back. */
export async function fetchCheckedTools(
  fetchPage: ToolPageFetch,
  maxTools = DEFAULT_MAX_TOOLS,
): Promise<{ tools: Tool[]; rejected: RejectedTool[] }> {
  const tools: Tool[] = [];
  const rejected: RejectedTool[] = [];
  const seen = new Set<string>();
  let cursor: string | undefined;
  for (let page = 0; page < MAX_PAGES; page += 1) {
    const result = (await fetchPage(cursor)) as { tools?: unknown; nextCursor?: unknown } | null;
    if (result === null || typeof result !== 'object' || !Array.isArray(result.tools)) {
      throw new PortcullisError('UPSTREAM_ERROR', 'the upstream answered tools/list without a tools array');
    }
    if (tools.length + rejected.length + result.tools.length > maxTools) {
      // Refused before any entry is checked: the cost of a longer list stays bounded whatever the upstream sends.
      throw new PortcullisError(
        'UPSTREAM_ERROR',
        `the upstream lists more than ${maxTools} tools (upstreams.<id>.maxTools); raise the limit to govern them all`,
        { reason: 'too-many-tools' },
      );
    }
    for (const raw of result.tools as unknown[]) {
      const name = nameOf(raw);
      const checked = specTypeSchemas.Tool['~standard'].validate(raw);
      if (checked instanceof Promise) throw new TypeError('tool validation must be synchronous');
      if (checked.issues !== undefined) {
        const issue = checked.issues[0];
        const where = issue?.path?.map((p) => String(typeof p === 'object' ? p.key : p)).join('.') ?? '';
        rejected.push({
          name,
          reason: `invalid definition: ${where ? `${where}: ` : ''}${issue?.message ?? ''}`,
        });
      } else if (seen.has(checked.value.name)) {
        rejected.push({
          name,
          reason: 'duplicate name: the upstream listed this name before; the first is kept',
        });
      } else {
        seen.add(checked.value.name);
        tools.push(checked.value);
      }
    }
    cursor =
      typeof result.nextCursor === 'string' && result.nextCursor !== '' ? result.nextCursor : undefined;
    if (cursor === undefined) break;
  }
  return { tools, rejected };
}

function nameOf(raw: unknown): string {
  const name = raw !== null && typeof raw === 'object' ? (raw as { name?: unknown }).name : undefined;
  return typeof name === 'string' ? name.slice(0, MAX_NAME_CHARS) : '(no name)';
}
