/** Approval prompt rendering and the denial text the model sees (reference-rules §15, D18). */

/** The one default prompt (D18). */
export const DEFAULT_APPROVAL_PROMPT = "Run '{toolName}' with arguments {args}?";

/** Argument JSON longer than this is cut and ends with `...`. */
export const PROMPT_ARGS_MAX = 400;

/**
 * The approval prompt: `template` (or the default when absent or blank) with every `{toolName}` and then every
 * `{args}` replaced as plain text. `{args}` is the arguments' JSON (`{}` when none), cut at 400 characters.
 */
export function renderApprovalPrompt(template: string | undefined, toolName: string, args: unknown): string {
  const text = template === undefined || template.trim() === '' ? DEFAULT_APPROVAL_PROMPT : template;
  return text.split('{toolName}').join(toolName).split('{args}').join(argsText(args));
}

/** The text of a denied call's tool result. */
export function denialText(reason: string): string {
  return `Tool execution was denied: ${reason}`;
}

function argsText(args: unknown): string {
  if (args === undefined || args === null) return '{}';
  let json: string | undefined;
  try {
    json = JSON.stringify(args);
  } catch {
    return '(arguments cannot be shown)';
  }
  if (json === undefined) return '{}';
  if (json.length <= PROMPT_ARGS_MAX) return json;
  let cut = json.slice(0, PROMPT_ARGS_MAX);
  // Never leave half of a surrogate pair at the cut.
  if (/[\uD800-\uDBFF]$/.test(cut)) cut = cut.slice(0, -1);
  return `${cut}...`;
}
