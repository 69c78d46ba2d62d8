/**
 * The arguments as the person approving a call sees them (docs/security.md, "Call guards"): every argument by
 * name, the sensitive ones (paths, URLs, commands, recipients, and whatever the deciding rule looks at) first,
 * long values shortened in the middle with their length, undeclared properties marked, and past a bound the
 * rest counted, never a sensitive one hidden.
 */

/** What the listing knows about the call besides its arguments. */
export interface ArgumentListingContext {
  /** The tool's inputSchema: declared properties and their `format`. */
  inputSchema?: unknown;
  /** Top-level argument names the deciding rule looks at. */
  sensitive?: readonly string[];
}

/** Arguments shown by value at most (sensitive ones are always shown, beyond it too). */
export const LISTED_ARGUMENTS_MAX = 30;
const SENSITIVE_VALUE_MAX = 400;
const VALUE_MAX = 160;
const KEY_MAX = 64;

// Words of a property name that say it names where a call acts or whom it reaches.
const SENSITIVE_WORDS = new Set(
  (
    'path paths file files filename filepath dir dirs directory folder dest destination target source src url ' +
    'urls uri uris href link endpoint host hostname domain command commands cmd script exec shell argv ' +
    'to cc bcc recipient recipients email emails address addresses phone repo repository sql query'
  ).split(' '),
);
const SENSITIVE_FORMATS = new Set(['uri', 'uri-reference', 'iri', 'iri-reference', 'email', 'idn-email']);
const PLAIN_KEY = /^[A-Za-z_$][\w$.-]*$/;

/** The `{…}` text of the arguments for an approval prompt. */
export function listArguments(args: unknown, context: ArgumentListingContext = {}): string {
  if (args === undefined || args === null) return '{}';
  if (typeof args !== 'object' || Array.isArray(args)) return valueText(args, SENSITIVE_VALUE_MAX);
  const record = args as Record<string, unknown>;
  const properties = declaredProperties(context.inputSchema);
  const ruleNames = new Set(context.sensitive ?? []);
  const sensitive: string[] = [];
  const declared: string[] = [];
  const extra: string[] = [];
  for (const key of Object.keys(record)) {
    if (ruleNames.has(key) || isSensitiveName(key) || hasSensitiveFormat(properties?.[key]))
      sensitive.push(key);
    else if (properties === undefined || Object.hasOwn(properties, key)) declared.push(key);
    else extra.push(key);
  }
  const others = [...declared, ...extra];
  const room = Math.max(0, LISTED_ARGUMENTS_MAX - sensitive.length);
  const entries = [...sensitive, ...others.slice(0, room)].map((key) => {
    const undeclared = properties !== undefined && !Object.hasOwn(properties, key);
    const name = `${keyText(key)}${undeclared ? " (not in the tool's schema)" : ''}`;
    const max = sensitive.includes(key) ? SENSITIVE_VALUE_MAX : VALUE_MAX;
    return `${name}: ${valueText(record[key], max)}`;
  });
  const hidden = others.length - Math.min(others.length, room);
  if (hidden > 0) entries.push(`… and ${hidden} more arguments`);
  return `{${entries.join(', ')}}`;
}

/** True for a property name with a word such as path, url, command or recipient in it (camel, snake, kebab). */
export function isSensitiveName(name: string): boolean {
  const words = name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z]+/);
  return words.some((word) => SENSITIVE_WORDS.has(word));
}

function declaredProperties(schema: unknown): Record<string, unknown> | undefined {
  if (schema === null || typeof schema !== 'object') return undefined;
  const properties = (schema as Record<string, unknown>)['properties'];
  return properties !== null && typeof properties === 'object' && !Array.isArray(properties)
    ? (properties as Record<string, unknown>)
    : undefined;
}

function hasSensitiveFormat(property: unknown): boolean {
  if (property === null || typeof property !== 'object') return false;
  const format = (property as Record<string, unknown>)['format'];
  return typeof format === 'string' && SENSITIVE_FORMATS.has(format);
}

function keyText(key: string): string {
  const text = PLAIN_KEY.test(key) ? key : JSON.stringify(key);
  return shorten(text, KEY_MAX);
}

function valueText(value: unknown, max: number): string {
  let json: string | undefined;
  try {
    json = JSON.stringify(value);
  } catch {
    return '(cannot be shown)';
  }
  return shorten(json ?? String(value), max);
}

/** Keeps the start and the end of a long text, with its length in between. */
function shorten(text: string, max: number): string {
  if (text.length <= max) return text;
  const keep = Math.floor((max - 24) / 2);
  let head = text.slice(0, keep);
  let tail = text.slice(text.length - keep);
  // Never leave half of a surrogate pair at a cut.
  if (/[\uD800-\uDBFF]$/.test(head)) head = head.slice(0, -1);
  if (/^[\uDC00-\uDFFF]/.test(tail)) tail = tail.slice(1);
  return `${head}…(${text.length} characters)…${tail}`;
}
