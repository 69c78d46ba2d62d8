/** Approval prompt rendering and the denial text the model sees (docs/rules/approval.md, R-HITL-4). */
import { listArguments, type ArgumentListingContext } from './argument-listing.ts';

/** The one default prompt (R-HITL-4). */
export const DEFAULT_APPROVAL_PROMPT = "Run '{toolName}' with arguments {args}?";

/**
 * The approval prompt: `template` (or the default when absent or blank) with every `{toolName}` and then every
 * `{args}` replaced as plain text. `{args}` lists every argument by name, sensitive ones first, long values
 * shortened in the middle (see argument-listing.ts); `{}` when there are none.
 */
export function renderApprovalPrompt(
  template: string | undefined,
  toolName: string,
  args: unknown,
  context: ArgumentListingContext = {},
): string {
  const text = template === undefined || template.trim() === '' ? DEFAULT_APPROVAL_PROMPT : template;
  return text.split('{toolName}').join(toolName).split('{args}').join(listArguments(args, context));
}

/** The text of a denied call's tool result. */
export function denialText(reason: string): string {
  return `Tool execution was denied: ${reason}`;
}
