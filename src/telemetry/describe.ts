/**
 * Pure functions that turn call facts into span attributes, outcomes and log event names. No SDK, no clock:
 * plain data in, plain data out, so every rule here is table-tested.
 */
import type { Attributes } from '@opentelemetry/api';
import type { ApprovalRecord } from '../audit/index.ts';
import { isPortcullisError } from '../errors/index.ts';
import { isRiskLevel } from '../risk/index.ts';
import type { Masker } from '../secrets/index.ts';
import type { ExecutionTarget, ToolCallFacts, ToolFacts } from './facts.ts';
import { ATTR, LOG_EVENT, TOOL_ERROR } from './names.ts';

/** How a tool call ended, as a metric label. */
export type CallOutcome = 'ok' | 'error' | 'denied';

/** How an MCP request ended, as a metric label (`input_required`: the call waits for the client). */
export type RequestOutcome = CallOutcome | 'input_required';

/** The `mcp.risk.level` of a tool the risk engine has not scored. */
export const UNSCORED = 'unscored';

/** The longest captured argument or result text; longer texts are cut (after masking). */
export const MAX_CAPTURE_CHARS = 4096;

const DENIAL_CODES: ReadonlySet<string> = new Set([
  'TOOL_DENIED',
  'RATE_LIMITED',
  'APPROVAL_TIMEOUT',
  'APPROVAL_INBOX_FULL',
  'RESPONSE_WITHHELD',
]);

// Codes that mean the call was answered as designed: refused, rejected before running, or an error the tool
// itself reported. Any other code means the call broke on the way (sandbox, upstream link, internal): a crash.
const HANDLED_CODES: ReadonlySet<string> = new Set([
  'TOOL_DENIED',
  'RATE_LIMITED',
  'UNKNOWN_TOOL',
  'INVALID_ARGUMENTS',
  'APPROVAL_STATE_INVALID',
  'APPROVAL_TIMEOUT',
  'APPROVAL_INBOX_FULL',
  'UPSTREAM_TOOL_ERROR',
  'RESPONSE_WITHHELD',
]);

/** The metric outcome of a finished call: denied (policy or person), error, or ok. */
export function callOutcomeOf(facts: Pick<ToolCallFacts, 'outcome' | 'errorCode'>): CallOutcome {
  if (facts.outcome === 'OK') return 'ok';
  return facts.errorCode !== undefined && DENIAL_CODES.has(facts.errorCode) ? 'denied' : 'error';
}

/** The log event of a finished call: `mcp.tool.crash` when it broke on the way, else `mcp.tool.done`. */
export function toolLogEventOf(
  facts: Pick<ToolCallFacts, 'outcome' | 'errorCode'>,
): typeof LOG_EVENT.toolDone | typeof LOG_EVENT.toolCrash {
  if (facts.outcome === 'OK') return LOG_EVENT.toolDone;
  return facts.errorCode !== undefined && HANDLED_CODES.has(facts.errorCode)
    ? LOG_EVENT.toolDone
    : LOG_EVENT.toolCrash;
}

const levelOf = (value: unknown): string | undefined =>
  typeof value === 'string' && isRiskLevel(value) ? value : undefined;

const nestedLevel = (value: unknown): string | undefined =>
  value !== null && typeof value === 'object' ? levelOf((value as { level?: unknown }).level) : undefined;

/** The effective risk level of a tool (`effective`, else `final`), or `unscored`. */
export function riskLevelOf(tool: ToolFacts | undefined): string {
  const risk = tool?.governance?.risk;
  return levelOf(risk?.effective) ?? levelOf(risk?.final) ?? UNSCORED;
}

/** The risk context of a tool as span attributes: origin, composition, upstream, risk levels and flags. */
export function riskAttributes(tool: ToolFacts | undefined): Attributes {
  if (!tool) return { [ATTR.mcpRiskLevel]: UNSCORED };
  const attrs: Attributes = {
    [ATTR.mcpOrigin]: tool.origin,
    [ATTR.mcpCompositionAlias]: tool.alias,
    [ATTR.mcpRiskLevel]: riskLevelOf(tool),
  };
  if (tool.composition !== undefined) {
    attrs[ATTR.mcpCid] = tool.composition;
    attrs[ATTR.mcpCompositionImplicit] = tool.composition.startsWith('upstream:');
  }
  if (tool.hitl !== undefined) attrs[ATTR.mcpCompositionHitl] = tool.hitl;
  if (tool.upstream !== undefined) attrs[ATTR.mcpUpstreamId] = tool.upstream;
  if (tool.upstreamTool !== undefined) attrs[ATTR.mcpUpstreamTool] = tool.upstreamTool;
  if (tool.localToolId !== undefined) attrs[ATTR.mcpLocalToolId] = tool.localToolId;
  const risk = tool.governance?.risk;
  const final = levelOf(risk?.final);
  if (final !== undefined) attrs[ATTR.mcpRiskFinal] = final;
  const serverLevel = nestedLevel(risk?.server);
  if (serverLevel !== undefined) attrs[ATTR.mcpRiskServerLevel] = serverLevel;
  const publishLevel = nestedLevel(risk?.publish);
  if (publishLevel !== undefined) attrs[ATTR.mcpRiskPublishLevel] = publishLevel;
  if (typeof risk?.floorTrigger === 'string') attrs[ATTR.mcpRiskFloorTrigger] = risk.floorTrigger;
  if (typeof risk?.hitlMitigated === 'boolean') attrs[ATTR.mcpRiskHitlMitigated] = risk.hitlMitigated;
  const poisoned =
    typeof risk?.poisoned === 'boolean' ? risk.poisoned : tool.governance?.poisoning?.clean === false;
  attrs[ATTR.mcpRiskPoisoned] = poisoned;
  const status = tool.governance?.fingerprint?.status;
  if (status !== undefined) attrs[ATTR.mcpFingerprintStatus] = status;
  return attrs;
}

/** Where a resolved tool executes, for traceExecution (`transport` is the upstream's configured transport). */
export function executionTargetOf(tool: ToolFacts, transport?: string): ExecutionTarget {
  if (tool.origin === 'local') return { origin: 'local', toolId: tool.localToolId ?? tool.alias };
  return {
    origin: 'upstream',
    upstream: tool.upstream ?? 'unknown',
    tool: tool.upstreamTool ?? tool.alias,
    ...(transport === undefined ? {} : { transport }),
  };
}

/** The `mcp.approval` event attributes of an approval record, or undefined when no decision was recorded. */
export function approvalAttributes(approval: ApprovalRecord | undefined): Attributes | undefined {
  if (approval === undefined) return undefined;
  const attrs: Attributes = { [ATTR.approvalDecision]: approval.decision };
  if (approval.ruleId !== undefined) attrs[ATTR.approvalRuleId] = approval.ruleId;
  if (approval.mode !== null) attrs[ATTR.approvalMode] = approval.mode;
  if (approval.elicitation !== undefined) attrs[ATTR.approvalElicitation] = approval.elicitation;
  return attrs;
}

/** Pattern ids and field paths of poisoning matches (`{ patternId, fieldPath }` objects), deduplicated. */
export function poisoningSummary(matches: readonly unknown[]): { patterns: string[]; fields: string[] } {
  const patterns = new Set<string>();
  const fields = new Set<string>();
  for (const match of matches) {
    if (match === null || typeof match !== 'object') continue;
    const { patternId, fieldPath } = match as { patternId?: unknown; fieldPath?: unknown };
    if (typeof patternId === 'string') patterns.add(patternId);
    if (typeof fieldPath === 'string') fields.add(fieldPath);
  }
  return { patterns: [...patterns].sort(), fields: [...fields].sort() };
}

/** The error of a failed request as `error.type` (the stable code when known) and the JSON-RPC code if any. */
export function errorTypeOf(error: unknown): { errorType: string; rpcCode?: string } {
  if (isPortcullisError(error)) return { errorType: error.code };
  if (error !== null && typeof error === 'object') {
    const { code, data } = error as { code?: unknown; data?: unknown };
    if (typeof code === 'number') {
      // The gateway's protocol errors carry the stable code in their data.
      const stable =
        data !== null && typeof data === 'object' ? (data as { code?: unknown }).code : undefined;
      return { errorType: typeof stable === 'string' ? stable : String(code), rpcCode: String(code) };
    }
  }
  return { errorType: 'INTERNAL' };
}

// The answers without an error type, shared (read only) so that the common case allocates nothing per call.
const OK: { readonly outcome: RequestOutcome } = Object.freeze({ outcome: 'ok' });
const PARKED: { readonly outcome: RequestOutcome } = Object.freeze({ outcome: 'input_required' });

/** What a returned MCP result says about the request: a tool error (with its stable code), parked, or ok. */
export function resultOutcomeOf(result: unknown): {
  readonly outcome: RequestOutcome;
  readonly errorType?: string;
} {
  if (result === null || typeof result !== 'object') return OK;
  const {
    isError,
    resultType,
    _meta: meta,
  } = result as { isError?: unknown; resultType?: unknown; _meta?: unknown };
  if (resultType === 'input_required') return PARKED;
  if (isError !== true) return OK;
  const info =
    meta !== null && typeof meta === 'object'
      ? (meta as Record<string, unknown>)['dev.portcullis/error']
      : undefined;
  const code = info !== null && typeof info === 'object' ? (info as { code?: unknown }).code : undefined;
  const errorType = typeof code === 'string' ? code : TOOL_ERROR;
  return { outcome: DENIAL_CODES.has(errorType) ? 'denied' : 'error', errorType };
}

/**
 * A value as span attribute text: every secret masked, JSON, cut to MAX_CAPTURE_CHARS. Masking runs before the
 * cut so that a cut can never leave the unmasked head of a secret behind.
 */
export function captureText(value: unknown, masker: Masker): string {
  let text: string;
  try {
    text = JSON.stringify(masker.maskDeep(value)) ?? 'undefined';
  } catch {
    return '[not serializable]';
  }
  return text.length > MAX_CAPTURE_CHARS ? `${text.slice(0, MAX_CAPTURE_CHARS)}…[cut]` : text;
}

/** Masks every string (and string array item) of a set of attributes. */
export function maskAttributes(attrs: Attributes, masker: Masker): Attributes {
  if (masker.empty) return attrs;
  const out: Attributes = {};
  for (const [key, value] of Object.entries(attrs)) {
    if (typeof value === 'string') out[key] = masker.mask(value);
    else if (Array.isArray(value))
      out[key] = value.map((item: unknown) => (typeof item === 'string' ? masker.mask(item) : item)) as
        string[] | number[] | boolean[];
    else out[key] = value;
  }
  return out;
}
