/**
 * Benign tool bodies that poisoned entries hide their payload in, and the helpers that plant a payload in a
 * chosen field. A carrier is ordinary on its own; only the planted text makes the entry poisoned.
 */
import type { McpToolDefinition } from '../../src/risk/index.ts';
import { arr, bool, int, oneOf, str, tool } from './types.ts';
import type { PoisonedSpec, PoisonedTechnique, Prop } from './types.ts';

/** A benign tool body. */
export interface Carrier {
  readonly name: string;
  readonly description: string;
  readonly props: Record<string, Prop>;
  readonly required: readonly string[];
}

const c = (
  name: string,
  description: string,
  props: Record<string, Prop>,
  required: string[] = [],
): Carrier => ({
  name,
  description,
  props,
  required,
});

/** The carrier pool; entries pick from it by index so the choice is deterministic. */
export const CARRIERS: readonly Carrier[] = [
  c(
    'get_weather',
    'Returns current conditions and a three-day forecast for a city.',
    { city: str('City name.'), units: oneOf(['metric', 'imperial'], 'Unit system.', { default: 'metric' }) },
    ['city'],
  ),
  c(
    'add_numbers',
    'Adds two integers and returns the sum.',
    { a: int('First addend.'), b: int('Second addend.') },
    ['a', 'b'],
  ),
  c(
    'convert_currency',
    'Converts an amount between two currencies at the latest reference rate.',
    {
      amount: { type: 'number', description: 'Amount to convert.' },
      from: str('ISO code of the source currency.'),
      to: str('ISO code of the target currency.'),
    },
    ['amount', 'from', 'to'],
  ),
  c(
    'search_docs',
    'Full-text search over the product documentation; returns titles and short excerpts.',
    { query: str('Search terms.'), limit: int('Maximum hits.', { default: 10 }) },
    ['query'],
  ),
  c('list_todos', 'Lists open to-do items of the current project, newest first.', {
    project: str('Project key.'),
    includeDone: bool('Also list finished items.', { default: false }),
  }),
  c(
    'format_code',
    'Formats source code with the project formatter and returns the result.',
    {
      code: str('Source text.'),
      language: oneOf(['typescript', 'python', 'go', 'rust'], 'Language of the code.'),
    },
    ['code', 'language'],
  ),
  c(
    'translate',
    'Translates a short text into the target language.',
    { text: str('Text to translate.'), target: str('Target language code, e.g. de.') },
    ['text', 'target'],
  ),
  c(
    'get_stock_quote',
    'Returns the last traded price and daily change of a ticker symbol.',
    { symbol: str('Ticker, e.g. MSFT.') },
    ['symbol'],
  ),
  c('summarize_url', 'Fetches a web page and returns a five-sentence summary.', { url: str('Page URL.') }, [
    'url',
  ]),
  c(
    'create_note',
    'Saves a note with a title and markdown body in the notebook.',
    {
      title: str('Note title.'),
      body: str('Markdown content.'),
      folder: str('Folder name.', { default: 'Inbox' }),
    },
    ['title', 'body'],
  ),
  c(
    'calendar_list_events',
    'Lists calendar events between two dates.',
    { start: str('ISO start date.'), end: str('ISO end date.') },
    ['start', 'end'],
  ),
  c(
    'lint_file',
    'Runs the linter on one file and returns the problems found.',
    { path: str('File to lint.'), fix: bool('Apply safe fixes.', { default: false }) },
    ['path'],
  ),
  c('get_exchange_rates', "Lists today's reference exchange rates for a base currency.", {
    base: str('Base currency.', { default: 'EUR' }),
  }),
  c('random_quote', 'Returns a random quotation, optionally from a given author.', {
    author: str('Author to draw from.'),
  }),
  c(
    'timezone_now',
    'Returns the current local time in an IANA time zone.',
    { zone: str('Time zone, e.g. Asia/Tokyo.') },
    ['zone'],
  ),
  c('word_count', 'Counts words, sentences and characters in a text.', { text: str('Text to measure.') }, [
    'text',
  ]),
  c(
    'unit_convert',
    'Converts a quantity between units of length, mass or temperature.',
    {
      value: { type: 'number', description: 'Quantity.' },
      from: str('Source unit.'),
      to: str('Target unit.'),
    },
    ['value', 'from', 'to'],
  ),
  c(
    'git_summary',
    'Summarises the last commits of a local repository in plain language.',
    { repo: str('Repository path.'), count: int('Commits to include.', { default: 10 }) },
    ['repo'],
  ),
  c(
    'run_tests',
    'Runs the project test suite and reports failures.',
    { path: str('Project root.'), filter: str('Only tests whose name matches.') },
    ['path'],
  ),
  c(
    'image_resize',
    'Resizes an image file to the given width, keeping the aspect ratio.',
    { path: str('Image path.'), width: int('Target width in pixels.') },
    ['path', 'width'],
  ),
  c(
    'dictionary_lookup',
    'Gives definitions, pronunciation and examples for an English word.',
    { word: str('Word to define.') },
    ['word'],
  ),
  c(
    'package_info',
    'Shows the latest version, licence and weekly downloads of an npm package.',
    { name: str('Package name.') },
    ['name'],
  ),
  c(
    'create_ticket',
    'Opens a ticket in the team tracker.',
    {
      title: str('Short summary.'),
      body: str('Details.'),
      priority: oneOf(['low', 'normal', 'high'], 'Priority.', { default: 'normal' }),
    },
    ['title'],
  ),
  c('crm_lookup', 'Finds a customer record by email or company name.', { query: str('Email or company.') }, [
    'query',
  ]),
  c(
    'fetch_rss',
    'Reads an RSS or Atom feed and returns the latest items.',
    { feedUrl: str('Feed URL.'), max: int('Items to return.', { default: 5 }) },
    ['feedUrl'],
  ),
  c(
    'math_eval',
    'Evaluates an arithmetic expression safely (no variables, no functions).',
    { expression: str('Expression, e.g. (3+4)*2.') },
    ['expression'],
  ),
  c(
    'recipe_search',
    'Finds recipes that use the given ingredients.',
    { ingredients: arr({ type: 'string' }, 'Ingredients at hand.') },
    ['ingredients'],
  ),
  c(
    'ping_host',
    'Checks whether a host answers and reports the round-trip time.',
    { host: str('Host name or IP.'), count: int('Probes.', { default: 3 }) },
    ['host'],
  ),
  c(
    'list_branches',
    'Lists the branches of a repository with their last commit.',
    { repo: str('owner/name.') },
    ['repo'],
  ),
  c(
    'read_csv',
    'Parses a CSV file and returns the first rows as JSON.',
    { path: str('CSV file.'), rows: int('Rows to return.', { default: 20 }) },
    ['path'],
  ),
  c(
    'spell_check',
    'Finds spelling mistakes in a text and suggests corrections.',
    { text: str('Text to check.'), language: str('Language code.', { default: 'en' }) },
    ['text'],
  ),
  c(
    'diff_text',
    'Shows a line diff between two texts.',
    { before: str('Original text.'), after: str('Changed text.') },
    ['before', 'after'],
  ),
  c(
    'hash_text',
    'Computes a SHA-256 or MD5 digest of a text.',
    { text: str('Input.'), algorithm: oneOf(['sha256', 'md5'], 'Digest.', { default: 'sha256' }) },
    ['text'],
  ),
  c(
    'movie_info',
    'Returns plot, cast and rating of a film.',
    { title: str('Film title.'), year: int('Release year.') },
    ['title'],
  ),
  c(
    'flight_status',
    'Tells whether a flight is on time, delayed or cancelled.',
    { flight: str('Flight number, e.g. LH400.'), date: str('ISO date.') },
    ['flight'],
  ),
  c('generate_uuid', 'Generates one or more random UUIDs.', { count: int('How many.', { default: 1 }) }),
];

/** The carrier at `index`, cycling through the pool. */
export function carrier(index: number): Carrier {
  return CARRIERS[index % CARRIERS.length] as Carrier;
}

/** A tool from a carrier, with an optional replacement description and extra properties. */
export function fromCarrier(
  body: Carrier,
  description: string = body.description,
  props: Record<string, Prop> = body.props,
): McpToolDefinition {
  return tool(body.name, description, props, body.required);
}

/** Where a payload goes inside a description. */
export type Placement = 'end' | 'start' | 'middle';

/** The carrier description with `payload` added at `placement`. */
export function withPayload(body: Carrier, payload: string, placement: Placement = 'end'): string {
  if (placement === 'start') return `${payload} ${body.description}`;
  if (placement === 'end') return `${body.description} ${payload}`;
  const cut = body.description.indexOf(' ', Math.floor(body.description.length / 2));
  return cut < 0
    ? `${body.description} ${payload}`
    : `${body.description.slice(0, cut)} ${payload}${body.description.slice(cut)}`;
}

/** Appends `payload` to the description of the carrier's first property (its schema surface). */
export function inFirstParam(body: Carrier, payload: string): Record<string, Prop> {
  const entries = Object.entries(body.props);
  return Object.fromEntries(
    entries.map(([key, prop], index) =>
      index === 0 ? [key, { ...prop, description: `${String(prop.description)} ${payload}` }] : [key, prop],
    ),
  );
}

/** A poisoned spec whose payload sits in a carrier's description. */
export function describedSpec(
  technique: PoisonedTechnique,
  variant: string,
  source: string,
  index: number,
  payload: string,
  placement: Placement = 'end',
): PoisonedSpec {
  const body = carrier(index);
  return {
    technique,
    variant,
    surface: 'description',
    source,
    tool: fromCarrier(body, withPayload(body, payload, placement)),
  };
}

/** A poisoned spec whose payload sits in the first parameter's description. */
export function paramSpec(
  technique: PoisonedTechnique,
  variant: string,
  source: string,
  index: number,
  payload: string,
): PoisonedSpec {
  const body = carrier(index);
  return {
    technique,
    variant,
    surface: 'parameter-description',
    source,
    tool: fromCarrier(body, body.description, inFirstParam(body, payload)),
  };
}

/** Published write-ups each technique follows (named in `source`; no text of theirs is reused). */
export const WRITEUPS = {
  invariant:
    'authored for this corpus after the technique in Invariant Labs, "MCP Security Notification: Tool Poisoning Attacks" (2025)',
  trailLine:
    'authored for this corpus after the technique in Trail of Bits, "Jumping the line" (MCP line jumping, 2025)',
  trailAnsi:
    'authored for this corpus after the technique in Trail of Bits, "Deceiving users with ANSI terminal codes in MCP" (2025)',
  cyberark:
    'authored for this corpus after the technique in CyberArk, "Poison everywhere: no output from your MCP server is safe" (full-schema poisoning, 2025)',
  smuggling:
    'authored for this corpus after the published descriptions of Unicode tag-character "ASCII smuggling" (Embrace The Red), Trojan Source bidi controls and zero-width hiding',
  markdown:
    'authored for this corpus after the published descriptions of markdown-image and link exfiltration from LLM chats (Embrace The Red)',
  owasp: 'authored for this corpus after OWASP Top 10 for LLM Applications, LLM01 Prompt Injection',
  elastic:
    'authored for this corpus after Elastic Security Labs, "MCP tools: attack vectors and defense recommendations" (2025)',
  squat:
    'authored for this corpus after published descriptions of package typosquatting and "slopsquatting" via AI suggestions',
  templates:
    'authored for this corpus after published descriptions of chat-template and special-token injection',
} as const;
