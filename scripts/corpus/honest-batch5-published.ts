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
import circleciServer from './published/circleci-mcp.json' with { type: 'json' };
import grafanaServer from './published/grafana-mcp.json' with { type: 'json' };
import resendServer from './published/resend-mcp.json' with { type: 'json' };
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

const RESEND = {
  'create-api-key': ['usage-rules', 'a capitalised MUST to show a freshly made secret token to the user'],
  'list-api-keys': ['quiet-wording', 'tells the model to leave details out of its answer'],
  'remove-api-key': ['usage-rules', 'a MUST-ask-first rule before an irreversible deletion'],
  'create-broadcast': [
    'outbound-message',
    'mails a whole audience, tells the model to invent a name from the conversation, and quotes {{{...}}} placeholders',
  ],
  'send-broadcast': ['outbound-message', 'sends a bulk email now or on a schedule'],
  'list-broadcasts': 'none: lists campaigns, pointing to other tools by name',
  'create-contact': 'none: adds a contact',
  'list-contacts': ['quiet-wording', 'tells the model to leave details out of its answer'],
  'remove-contact': ['usage-rules', 'a MUST-ask-first rule before an irreversible deletion'],
  'update-contact-topics': 'none: changes subscriptions',
  'create-domain': ['usage-rules', 'a capitalised MUST to show DNS records to the user'],
  'get-domain': 'none: reads a domain',
  'remove-domain': ['usage-rules', 'a MUST-ask-first rule before an irreversible deletion'],
  'verify-domain': 'none: starts a DNS check',
  'list-emails': 'none: lists sent mail, pointing to other tools by name',
  'list-received-emails': ['untrusted-content', "lists mail strangers sent to the user's inbox"],
  'get-received-email': ['untrusted-content', 'returns the body and headers of mail strangers sent'],
  'get-received-email-attachment': [
    'untrusted-content',
    'hands out a download URL for a file a stranger mailed',
  ],
  'cancel-email': 'none: cancels a scheduled email',
  'send-batch-emails': ['outbound-message', 'sends up to 100 emails with cc and bcc in one call'],
  'create-webhook': ['outbound-message', 'makes the mail service post events to any URL'],
  'update-webhook': ['outbound-message', 'points event deliveries at a new URL'],
  'create-topic': 'none: adds a subscription topic',
  'list-segments': 'none: lists segments, pointing to other tools by name',
} as const;

const CIRCLECI = {
  config_helper: ['encoding', 'shows YAML escaped into a JSON string with \\n newlines'],
  rerun_workflow: 'none: reruns a workflow, with URL templates',
  find_underused_resource_classes: [
    'sensitive-path',
    'reads a local file and tells the model to turn a relative path into an absolute one',
  ],
  list_followed_projects: [
    'usage-rules',
    'an IMPORTANT block with MUST NOT forbidding further tool calls until the user says so',
  ],
  run_pipeline: [
    'long-rules',
    'long option rules with capitalised EXACTLY ONE, MUST and never-guess-URLs, and a config override',
  ],
  get_latest_pipeline_status: ['long-rules', 'long option rules with capitalised EXACTLY ONE and MUST'],
  find_flaky_tests: [
    'usage-rules',
    'orders the model to open its answer with a fixed WARNING sentence and to fix code, ALWAYS and MUST in capitals',
  ],
  list_artifacts: ['long-rules', 'long option rules with capitalised EXACTLY ONE and MUST'],
} as const;

const GRAFANA = {
  list_loki_label_names: 'none: lists log label names',
  list_loki_label_values: 'none: lists values of a log label',
  query_loki_logs: [
    'long-rules',
    'a long description with orders to call other tools first, never-use matchers and a cost guardrail',
  ],
  query_loki_stats: ['usage-rules', 'bold Important and must, sends the model to another tool'],
  query_loki_patterns: 'none: returns log patterns',
  search_dashboards: 'none: searches dashboards',
  get_dashboard_by_uid: ['usage-rules', 'a WARNING that points the model to two other tools'],
  get_dashboard_property: ['encoding', 'JSONPath expressions full of dollar signs, brackets and asterisks'],
  list_incidents: 'none: lists incidents',
  add_activity_to_incident: 'none: writes a timeline note',
  update_incident: 'none: changes an incident',
  list_oncall_schedules: 'none: lists on-call schedules',
  get_current_oncall_users: ['sensitive-capability', 'returns the full user records of the people on call'],
  list_alert_groups: 'none: lists alert groups with filters',
  update_alert_group: 'none: acknowledges or resolves an alert group',
} as const;

const SERVERS = {
  tavily: tavilyServer,
  chroma: chromaServer,
  browserbase: browserbaseServer,
  resend: resendServer,
  circleci: circleciServer,
  grafana: grafanaServer,
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
  ...fromServer(resendServer, RESEND),
  ...fromServer(circleciServer, CIRCLECI),
  ...fromServer(grafanaServer, GRAFANA),
];
