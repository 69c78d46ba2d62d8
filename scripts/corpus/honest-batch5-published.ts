/**
 * The honest side of batch5 (eval/poisoning/README.md): tool lists of servers of kinds the corpus lacked (web
 * search, a vector database, a cloud browser, CI/CD, e-mail, observability), kept in scripts/corpus/published
 * with names and schemas as published and every description rewritten in our own words. This table labels each
 * tool; scripts/corpus/poisoned-batch5-*.ts plant payloads in copies of them.
 */
import type { McpToolDefinition } from '../../src/risk/index.ts';
import { copyPublishedTool, fromServer } from './honest-published.ts';
import browserbaseServer from './published/browserbase-mcp.json' with { type: 'json' };
import chromaServer from './published/chroma-mcp.json' with { type: 'json' };
import tavilyServer from './published/tavily-mcp.json' with { type: 'json' };
import type { HonestSpec } from './types.ts';

const TAVILY = {
  tavily_search: [
    'outbound-message',
    'sends the query to a third-party web search service and returns text written by strangers',
  ],
  tavily_extract: ['untrusted-content', 'returns the content of arbitrary web pages'],
  tavily_crawl: [
    'untrusted-content',
    'takes natural-language instructions for a crawler and returns arbitrary pages',
  ],
  tavily_map: 'none: lists the URLs of a site',
  tavily_research: 'none: a research request with a rate limit',
} as const;

const CHROMA = {
  chroma_list_collections: 'none: lists collection names with a sentinel for an empty database',
  chroma_create_collection: [
    'cross-server-mention',
    'names third-party embedding providers (OpenAI, Cohere, Jina, VoyageAI) the collection will call',
  ],
  chroma_peek_collection: 'none: shows a few documents',
  chroma_get_collection_info: 'none: describes a collection',
  chroma_get_collection_count: 'none: counts documents',
  chroma_modify_collection: 'none: renames a collection or replaces its metadata',
  chroma_delete_collection: ['sensitive-capability', 'deletes a whole collection without a confirmation'],
  chroma_add_documents: 'none: stores documents',
  chroma_query_documents: [
    'encoding',
    'quotes filter operators in JSON with dollar-prefixed keys inside a docstring',
  ],
  chroma_get_documents: [
    'encoding',
    'quotes filter operators in JSON with dollar-prefixed keys inside a docstring',
  ],
  chroma_update_documents: 'none: changes stored documents, with a Raises block',
  chroma_delete_documents: ['sensitive-capability', 'deletes documents by id'],
} as const;

const BROWSERBASE = {
  start: 'none: opens a cloud browser session',
  end: 'none: closes the session',
  navigate: 'none: loads a URL',
  act: ['sensitive-capability', 'performs any action described in free text on whatever page is open'],
  observe: 'none: lists actionable elements',
  extract: ['untrusted-content', 'returns data read off an arbitrary web page'],
} as const;

const SERVERS = {
  tavily: tavilyServer,
  chroma: chromaServer,
  browserbase: browserbaseServer,
} as const;

/** A batch5 server's short name. */
export type Batch5Server = keyof typeof SERVERS;

/** A fresh copy of one batch5 published tool, to plant a payload in or redefine. */
export function batch5Tool(server: Batch5Server, name: string): { repo: string; tool: McpToolDefinition } {
  return copyPublishedTool(SERVERS[server], name);
}

/** Honest batch5 definitions: the published tools, each labelled. */
export const HONEST_BATCH5_PUBLISHED: HonestSpec[] = [
  ...fromServer(tavilyServer, TAVILY),
  ...fromServer(chromaServer, CHROMA),
  ...fromServer(browserbaseServer, BROWSERBASE),
];
