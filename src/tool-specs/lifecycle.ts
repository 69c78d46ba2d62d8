/**
 * Lifecycle (docs/rules/tool-specs.md#r-spec-12-states) and the per-call requirement re-check: DRAFT first,
 * then MISSING_REQUIREMENTS when a referenced env var is unset or blank, else ACTIVE. TEST_FAILED is reserved.
 */
import { PortcullisError } from '../errors/index.ts';
import { declaredEnvVars, resolveStaticVariables } from './env.ts';
import { isMissingValue, type EnvLookup } from './deps.ts';
import type { LifecycleState, SafeToolSpec } from './types.ts';

/** The state of a spec and the env vars that keep it from ACTIVE. */
export interface LifecycleStatus {
  state: LifecycleState;
  /** Missing env var names, in declaration order (empty unless MISSING_REQUIREMENTS). */
  missing: string[];
}

/** Computes the lifecycle state; a null spec is DRAFT. Never returns TEST_FAILED. */
export function lifecycleOf(spec: SafeToolSpec | null | undefined, lookup: EnvLookup): LifecycleStatus {
  if (spec === null || spec === undefined || spec.draft) return { state: 'DRAFT', missing: [] };
  const missing = declaredEnvVars(spec).filter((name) => isMissingValue(lookup(name)));
  return missing.length > 0 ? { state: 'MISSING_REQUIREMENTS', missing } : { state: 'ACTIVE', missing: [] };
}

/** Arguments ready for the sandbox, and the secrets to mask. */
export interface ToolArgs {
  /** Every declared param (undefined when not supplied) plus static variables, which win on a name clash. */
  args: Record<string, unknown>;
  secrets: string[];
}

function lowerJsonString(type: string, value: unknown): unknown {
  if ((type !== 'OBJECT' && type !== 'ARRAY') || typeof value !== 'string') return value;
  try {
    const parsed: unknown = JSON.parse(value);
    const fits = type === 'ARRAY' ? Array.isArray(parsed) : parsed !== null && typeof parsed === 'object';
    return fits ? parsed : value;
  } catch {
    // Not JSON: passed on as the string it is; the tool's own validation decides.
    return value;
  }
}

/**
 * Builds sandbox arguments: declared params only (undeclared ones are dropped, so a caller cannot bind
 * arbitrary identifiers), null and blank strings treated as absent (R-SPEC-13), OBJECT/ARRAY params given
 * as JSON text parsed, then static variables merged over them (they override params).
 * Fails with INVALID_ARGUMENTS when a required param is absent or a placeholder is unresolved.
 */
export function buildToolArgs(
  spec: SafeToolSpec,
  supplied: Readonly<Record<string, unknown>>,
  lookup: EnvLookup,
): { ok: true; value: ToolArgs } | { ok: false; error: PortcullisError } {
  const args: Record<string, unknown> = {};
  const absent: string[] = [];
  for (const param of spec.params) {
    const raw = Object.hasOwn(supplied, param.name) ? supplied[param.name] : undefined;
    const empty = raw === undefined || raw === null || (typeof raw === 'string' && raw.trim() === '');
    args[param.name] = empty ? undefined : lowerJsonString(param.type, raw);
    if (empty && param.required) absent.push(param.name);
  }
  if (absent.length > 0) {
    return {
      ok: false,
      error: new PortcullisError('INVALID_ARGUMENTS', `missing required argument(s): ${absent.join(', ')}`, {
        reason: 'missing-argument',
        details: { missing: absent },
      }),
    };
  }
  const statics = resolveStaticVariables(spec, lookup);
  if (statics.missing.length > 0) {
    return {
      ok: false,
      error: new PortcullisError(
        'INVALID_ARGUMENTS',
        `environment variable(s) not set: ${statics.missing.join(', ')}; set them where the gateway runs`,
        { reason: 'missing-requirements', details: { missing: statics.missing } },
      ),
    };
  }
  for (const [key, value] of Object.entries(statics.values)) args[key] = value;
  return { ok: true, value: { args, secrets: statics.secrets } };
}

/** Outcome of the per-call check. */
export type PreparedCall =
  | { ok: true; args: Record<string, unknown>; secrets: string[] }
  | { ok: false; status: LifecycleStatus; error: PortcullisError };

/**
 * The gateway calls this on EVERY call: it re-checks the lifecycle against the current environment (a var
 * unset since start turns the tool MISSING_REQUIREMENTS), then builds the arguments. A tool that is not
 * ACTIVE answers UNKNOWN_TOOL, like any withheld tool.
 */
export function prepareToolCall(
  spec: SafeToolSpec,
  supplied: Readonly<Record<string, unknown>>,
  lookup: EnvLookup,
): PreparedCall {
  const status = lifecycleOf(spec, lookup);
  if (status.state !== 'ACTIVE') {
    return {
      ok: false,
      status,
      error: new PortcullisError('UNKNOWN_TOOL', `tool "${spec.name}" is not available (${status.state})`, {
        reason: status.state === 'MISSING_REQUIREMENTS' ? 'missing-requirements' : 'draft',
        details: { state: status.state, missing: status.missing },
      }),
    };
  }
  const built = buildToolArgs(spec, supplied, lookup);
  if (!built.ok) return { ok: false, status, error: built.error };
  return { ok: true, args: built.value.args, secrets: built.value.secrets };
}
