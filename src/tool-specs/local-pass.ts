/**
 * The Local Pass, the publish gate (docs/rules/tool-specs.md#r-spec-14-the-local-pass): run the code with its
 * testValues through the
 * ToolRunner, under the SAME resolved policy the published tool gets. A pass may persist `draft: false`
 * atomically; a failure leaves the file untouched and returns a structured LOCAL_PASS_FAILED error.
 */
import { readFile } from 'node:fs/promises';
import { isPortcullisError, type PortcullisError } from '../errors/index.ts';
import { parseSpec, specToDocument } from './document.ts';
import { createMasker, type EnvLookup, type ToolRunner, type ToolRunResult } from './deps.ts';
import { staticVariablesOf } from './env.ts';
import { buildToolArgs } from './lifecycle.ts';
import { writeFileAtomic } from './persist.ts';
import { readSpecFile } from './directory.ts';
import { combineSpecErrors, PROFILE_FIELD, type PolicyFor } from './resolver.ts';
import { scoreSandboxRisk, type SandboxRisk } from './risk-level.ts';
import { createSpecError, joinPointer } from './spec-error.ts';
import { parseTestValue } from './test-values.ts';
import { computeToolSafety, type ToolSafety } from './tool-safety.ts';
import type { SafeToolSpec } from './types.ts';

/** What the Local Pass needs: the runner, the env lookup and the gateway's own policy function. */
export interface LocalPassDeps {
  runner: ToolRunner;
  lookup: EnvLookup;
  policyFor: PolicyFor;
  /** Clock for the persisted timestamps (epoch ms). */
  now?: () => number;
}

/** Options of one Local Pass. */
export interface LocalPassOptions {
  /** The spec file to mark `draft: false` when the pass succeeds; nothing is written without it. */
  file?: string;
  /** `category.source` in toolSafety: `user` (default) or `builtin` for the bundled catalog. */
  categorySource?: string;
}

/** Outcome of a Local Pass; secrets are masked in every field. */
export type LocalPassOutcome =
  | {
      ok: true;
      /** The spec as published: draft false, fresh toolSafety. */
      spec: SafeToolSpec;
      value: unknown;
      console: string[];
      durationMs: number;
      toolSafety: ToolSafety;
      risk: SandboxRisk;
      persisted: boolean;
    }
  | { ok: false; error: PortcullisError; console: string[]; toolSafety?: ToolSafety };

/** The fields a pass vouches for; the file must still hold them when the pass is persisted. */
function behaviour(spec: SafeToolSpec): string {
  return JSON.stringify([
    spec.name,
    spec.code,
    spec.params,
    spec.staticVariables,
    spec.sandboxOverrides,
    spec.extensions[PROFILE_FIELD] ?? null,
  ]);
}

function testArguments(
  spec: SafeToolSpec,
): { ok: true; args: Record<string, unknown> } | { ok: false; error: PortcullisError } {
  const args: Record<string, unknown> = {};
  for (const [index, param] of spec.params.entries()) {
    const text = param.testValue;
    if (typeof text !== 'string' || text.trim() === '') {
      if (!param.required) continue;
      return {
        ok: false,
        error: createSpecError(
          'LOCAL_PASS_FAILED',
          joinPointer('params', index, 'testValue'),
          `param "${param.name}" is required but has no testValue to run with`,
          { reason: 'missing-test-value' },
        ),
      };
    }
    const parsed = parseTestValue(param.type, text);
    if (!parsed.ok) {
      return {
        ok: false,
        error: createSpecError(
          'LOCAL_PASS_FAILED',
          joinPointer('params', index, 'testValue'),
          `param "${param.name}" has type ${param.type} but its testValue ${parsed.message}`,
          { reason: 'bad-test-value' },
        ),
      };
    }
    args[param.name] = parsed.value;
  }
  return { ok: true, args };
}

function requirementPointer(spec: SafeToolSpec, missing: readonly string[]): string {
  const first = missing[0];
  const at = staticVariablesOf(spec).find((v) => first !== undefined && v.value.includes('${' + first + '}'));
  return at === undefined ? '/staticVariables' : joinPointer('staticVariables', at.index, at.key);
}

async function persistPass(
  file: string,
  passed: SafeToolSpec,
  toolSafety: ToolSafety,
  now: number,
): Promise<PortcullisError | undefined> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (cause) {
    return createSpecError('LOCAL_PASS_FAILED', '', `cannot read ${file} to persist the pass`, {
      reason: 'persist-failed',
      details: { cause: cause instanceof Error ? cause.message : String(cause) },
    });
  }
  const current = parseSpec(text, file);
  if (!current.ok || behaviour(current.value) !== behaviour(passed)) {
    return createSpecError(
      'LOCAL_PASS_FAILED',
      '',
      `${file} changed while the Local Pass ran; run the pass again on the new content`,
      { reason: 'file-changed' },
    );
  }
  const published: SafeToolSpec = {
    ...current.value,
    draft: false,
    toolSafety: toolSafety as unknown as Record<string, unknown>,
    createTimestamp: current.value.createTimestamp ?? now,
    updateTimestamp: now,
  };
  await writeFileAtomic(file, JSON.stringify(specToDocument(published), null, 2) + '\n');
  return undefined;
}

function failure(
  error: PortcullisError,
  console: string[] = [],
  toolSafety?: ToolSafety,
): Extract<LocalPassOutcome, { ok: false }> {
  return toolSafety === undefined ? { ok: false, error, console } : { ok: false, error, console, toolSafety };
}

/** Runs the Local Pass of a spec; never throws for a failing tool, a rejected policy or missing env vars. */
export async function runLocalPass(
  spec: SafeToolSpec,
  deps: LocalPassDeps,
  options: LocalPassOptions = {},
): Promise<LocalPassOutcome> {
  let resolved;
  try {
    resolved = deps.policyFor(spec);
  } catch (cause) {
    if (isPortcullisError(cause)) return failure(cause);
    throw cause;
  }
  const toolSafety = computeToolSafety(spec, resolved, { categorySource: options.categorySource ?? 'user' });
  const tests = testArguments(spec);
  if (!tests.ok) return failure(tests.error, [], toolSafety);
  const built = buildToolArgs(spec, tests.args, deps.lookup);
  if (!built.ok) {
    const missing = (built.error.details?.['missing'] as string[] | undefined) ?? [];
    const pointer =
      built.error.reason === 'missing-requirements' ? requirementPointer(spec, missing) : '/params';
    return failure(
      createSpecError(
        'LOCAL_PASS_FAILED',
        pointer,
        `Local Pass of "${spec.name}" cannot start: ${built.error.message}`,
        {
          reason: built.error.reason ?? 'invalid-arguments',
          details: { missing, toolSafety },
        },
      ),
      [],
      toolSafety,
    );
  }
  const masker = createMasker(built.value.secrets);
  let result: ToolRunResult;
  try {
    result = await deps.runner.run({
      toolId: spec.toolId,
      toolName: spec.name,
      code: spec.code,
      args: built.value.args,
      secrets: built.value.secrets,
      policy: resolved.policy,
    });
  } catch (cause) {
    const message = masker.mask(cause instanceof Error ? cause.message : String(cause));
    return failure(
      createSpecError(
        'LOCAL_PASS_FAILED',
        '/code',
        `Local Pass of "${spec.name}" failed: the runner threw: ${message}`,
        {
          reason: 'runner-error',
          details: { toolSafety },
        },
      ),
      [],
      toolSafety,
    );
  }
  const consoleLines = result.console.map((line) => masker.mask(line));
  if (!result.ok) {
    const message = masker.mask(result.message);
    const cause = result.reason === undefined ? result.code : `${result.code}/${result.reason}`;
    return failure(
      createSpecError(
        'LOCAL_PASS_FAILED',
        '/code',
        `Local Pass of "${spec.name}" failed (${cause}): ${message}`,
        {
          reason: result.reason ?? result.code.toLowerCase(),
          details: { runnerCode: result.code, console: consoleLines, toolSafety },
        },
      ),
      consoleLines,
      toolSafety,
    );
  }
  const now = (deps.now ?? Date.now)();
  let persisted = false;
  if (options.file !== undefined) {
    const error = await persistPass(options.file, spec, toolSafety, now);
    if (error !== undefined) return failure(error, consoleLines, toolSafety);
    persisted = true;
  }
  return {
    ok: true,
    spec: {
      ...spec,
      draft: false,
      toolSafety: toolSafety as unknown as Record<string, unknown>,
      ...(persisted ? { createTimestamp: spec.createTimestamp ?? now, updateTimestamp: now } : {}),
    },
    value: masker.maskDeep(result.value),
    console: consoleLines,
    durationMs: result.durationMs,
    toolSafety,
    risk: scoreSandboxRisk(resolved),
    persisted,
  };
}

/** Reads a spec file, runs its Local Pass and, on success, persists `draft: false` to that same file. */
export async function publishSpecFile(
  file: string,
  deps: LocalPassDeps,
  options: Omit<LocalPassOptions, 'file'> = {},
): Promise<LocalPassOutcome> {
  const read = await readSpecFile(file);
  if (!read.ok) return failure(combineSpecErrors(read.errors));
  return runLocalPass(read.value, deps, { ...options, file });
}
