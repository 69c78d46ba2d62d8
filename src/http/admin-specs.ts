/**
 * The admin API's Safe Tool Spec studio (docs/operations.md, "Tool studio"): read a spec of the watched `tools.dir`,
 * validate a spec with each error at its field, run its Local Pass in the real sandbox as the live gateway runs the
 * tool (its env lookup and workspace), and publish it (or save a draft), replacing the file that holds its toolId.
 */
import { randomUUID } from 'node:crypto';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import type { Hono } from 'hono';
import type { PortcullisConfig } from '../config/index.ts';
import { isPortcullisError, PortcullisError } from '../errors/index.ts';
import type { ToolRunner } from '../sandbox/index.ts';
import {
  createPolicyResolver,
  evaluateSpec,
  findSpecFile,
  formatSpecError,
  loadSandboxPolicies,
  parseSpec,
  readSpecFile,
  runLocalPass,
  serializeSpec,
  specToDocument,
  type LocalPassOutcome,
  type SafeToolSpec,
} from '../tool-specs/index.ts';
import type { AuditLog } from '../audit/index.ts';
import type { EnvLookup, Masker } from '../secrets/index.ts';
import { recordAdminAction, requireRole, type AdminContext, type AdminVariables } from './admin-guard.ts';

/** What the studio routes need from the admin API's dependencies. */
export interface AdminSpecsDeps {
  config: PortcullisConfig;
  audit: AuditLog;
  masker: Masker;
  now(): number;
  /** The live local tools' env lookup: a pass resolves `${NAME}` as a call of the published tool would. */
  lookup: EnvLookup;
  /** A fresh runner built as the live one (same workspace); closed after each pass. */
  passRunner(): ToolRunner;
}

/** One problem of a spec, at its field (a JSON pointer; `/` is the whole document). */
export interface SpecProblem {
  code: string;
  pointer: string;
  message: string;
  text: string;
}

type Checked =
  | { ok: true; spec: SafeToolSpec; toolSafety: unknown; risk: { level: string; reasons: string[] } }
  | { ok: false; errors: SpecProblem[] };

function problemsOf(errors: readonly PortcullisError[], masker: Masker): SpecProblem[] {
  const out: SpecProblem[] = [];
  const push = (code: string, pointer: string | undefined, message: string): void => {
    const at = pointer === undefined || pointer === '' ? '/' : pointer;
    out.push({
      code,
      pointer: at,
      message: masker.mask(message),
      text: masker.mask(`${code} ${at}: ${message}`),
    });
  };
  for (const error of errors) {
    const nested = error.details?.['errors'];
    if (Array.isArray(nested)) {
      for (const e of nested as Array<{ code: string; pointer?: string; message: string }>)
        push(e.code, e.pointer, e.message);
    } else push(error.code, error.pointer, formatSpecError(error).replace(/^\S+ \S+: /, ''));
  }
  return out;
}

async function readSpecInput(c: AdminContext): Promise<{ source: unknown; draft: boolean }> {
  let value: unknown;
  try {
    value = await c.req.json();
  } catch {
    throw new PortcullisError('PARSE_ERROR', 'the body is not valid JSON');
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    throw new PortcullisError('INVALID_INPUT', 'the body must be a JSON object');
  const body = value as { spec?: unknown; draft?: unknown };
  if (body.spec === undefined || body.spec === null)
    throw new PortcullisError(
      'INVALID_INPUT',
      '"spec" must be the spec document (an object) or its JSON/YAML text',
    );
  return { source: body.spec, draft: body.draft === true };
}

// The spec's toolId names the file: anything but a plain name could write outside tools.dir.
const FILE_STEM = /^[A-Za-z0-9][A-Za-z0-9_-]{0,127}$/;

/** A toolId as a plain name; anything else (a path, a dot, control characters, over 128) is refused. */
function plainToolId(toolId: string): string {
  if (!FILE_STEM.test(toolId))
    throw new PortcullisError(
      'INVALID_INPUT',
      'the toolId must be 1 to 128 letters, digits, _ or - (it names the file in tools.dir)',
    );
  return toolId;
}

/** The configured tools directory, or the refusal naming the key to set. */
function toolsDirOf(config: PortcullisConfig, doing: string): string {
  const dir = config.tools.dir;
  if (dir === undefined)
    throw new PortcullisError(
      'CONFIG_INVALID',
      `${doing} needs a tools directory: set tools.dir in the configuration`,
    );
  return dir;
}

/**
 * The file a spec is written to: the file of tools.dir that already holds its toolId (an edit replaces it), else
 * `<toolId>.json`, which must not hold another tool. Also the spec's createTimestamp when it had none.
 */
async function targetOf(
  dir: string,
  spec: SafeToolSpec,
): Promise<{ file: string; stem: string; createTimestamp: number | null }> {
  const stem = plainToolId(spec.toolId);
  const existing = await findSpecFile(dir, spec.toolId);
  if (existing !== undefined) {
    const base = basename(existing.file, '.json');
    return { file: existing.file, stem: base, createTimestamp: existing.spec.createTimestamp };
  }
  const file = join(dir, `${stem}.json`);
  const other = await readSpecFile(file);
  if (other.ok && other.value.toolId !== spec.toolId)
    throw new PortcullisError(
      'INVALID_INPUT',
      `${stem}.json in tools.dir holds another tool (toolId ${other.value.toolId}); choose another toolId`,
    );
  return { file, stem, createTimestamp: null };
}

/** Builds the studio routes over the configured sandbox policies and tools directory. */
export function addSpecRoutes(api: Hono<{ Variables: AdminVariables }>, deps: AdminSpecsDeps): void {
  const resolverOf = async () =>
    createPolicyResolver(await loadSandboxPolicies(), { defaultProfile: deps.config.tools.profile ?? null });

  const check = async (source: unknown): Promise<Checked> => {
    const parsed = parseSpec(source);
    if (!parsed.ok) return { ok: false, errors: problemsOf(parsed.errors, deps.masker) };
    const evaluation = evaluateSpec(parsed.value, await resolverOf());
    if (!evaluation.ok) return { ok: false, errors: problemsOf(evaluation.errors, deps.masker) };
    const { toolSafety, risk } = evaluation.value;
    return {
      ok: true,
      spec: parsed.value,
      toolSafety,
      risk: { level: risk.level, reasons: [...risk.reasons] },
    };
  };

  const localPass = async (spec: SafeToolSpec, file?: string): Promise<LocalPassOutcome> => {
    const resolver = await resolverOf();
    const runner = deps.passRunner();
    try {
      return await runLocalPass(
        spec,
        { runner, lookup: deps.lookup, policyFor: resolver.policyFor, now: deps.now },
        file === undefined ? {} : { file },
      );
    } finally {
      await runner.close();
    }
  };

  const passAnswer = (outcome: LocalPassOutcome) =>
    outcome.ok
      ? {
          ok: true,
          tests: [
            { ok: true, output: outcome.value, console: outcome.console.map((l) => deps.masker.mask(l)) },
          ],
          toolSafety: outcome.toolSafety,
          risk: { level: outcome.risk.level, reasons: [...outcome.risk.reasons] },
        }
      : {
          ok: false,
          tests: [{ ok: false, error: problemsOf([outcome.error], deps.masker), console: outcome.console }],
          errors: problemsOf([outcome.error], deps.masker),
          toolSafety: outcome.toolSafety ?? null,
        };

  // The spec of tools.dir with this toolId, for the studio's edit form: the document as on disk, masked.
  api.get('/specs/:toolId', async (c) => {
    const toolId = plainToolId(c.req.param('toolId'));
    const found = await findSpecFile(toolsDirOf(deps.config, 'reading a spec'), toolId);
    if (found === undefined)
      throw new PortcullisError('NOT_FOUND', `no spec file in tools.dir has the toolId ${toolId}`);
    return c.json({
      toolId,
      file: found.file,
      draft: found.spec.draft,
      spec: deps.masker.maskDeep(specToDocument(found.spec)),
    });
  });

  api.post('/specs/validate', async (c) => {
    const { source } = await readSpecInput(c);
    const checked = await check(source);
    return c.json(checked.ok ? { ok: true, toolSafety: checked.toolSafety, risk: checked.risk } : checked);
  });

  api.post('/specs/test', async (c) => {
    requireRole(c, 'operator');
    const { source } = await readSpecInput(c);
    const checked = await check(source);
    if (!checked.ok) return c.json(checked);
    const answer = passAnswer(await localPass(checked.spec));
    return c.json(answer.ok ? answer : { ...answer, risk: checked.risk });
  });

  api.post('/specs/publish', async (c) => {
    const startedAt = deps.now();
    const { source, draft } = await readSpecInput(c);
    const parsed = parseSpec(source);
    const target = parsed.ok ? parsed.value.toolId : null;
    const record = (outcome: 'OK' | 'ERROR', errorCode?: string) =>
      recordAdminAction(deps.audit, c, {
        action: draft ? 'spec.draft' : 'spec.publish',
        target,
        reason: null,
        body: { toolId: target, draft },
        outcome,
        durationMs: deps.now() - startedAt,
        ...(errorCode === undefined ? {} : { errorCode }),
      });
    try {
      requireRole(c, 'operator');
      const dir = toolsDirOf(deps.config, 'publishing');
      const checked = await check(source);
      if (!checked.ok) {
        record('ERROR', checked.errors[0]?.code ?? 'SPEC_PARSE');
        return c.json(checked);
      }
      await mkdir(dir, { recursive: true });
      const { file, stem, createTimestamp } = await targetOf(dir, checked.spec);
      const text = serializeSpec({
        ...checked.spec,
        draft: true,
        createTimestamp: checked.spec.createTimestamp ?? createTimestamp,
      });
      if (draft) {
        await writeFile(file, text, 'utf8');
        record('OK');
        return c.json({ ok: true, draft: true, file, toolId: checked.spec.toolId, risk: checked.risk });
      }
      // The pass runs on a dot-file the tools directory ignores, renamed over the tool's file only when it
      // passes: a failing version never replaces (or drafts out) the published one.
      const staging = join(dir, `.${stem}.${randomUUID()}.staging.json`);
      await writeFile(staging, text, 'utf8');
      try {
        const answer = passAnswer(await localPass({ ...checked.spec, draft: true }, staging));
        if (answer.ok) await rename(staging, file);
        record(answer.ok ? 'OK' : 'ERROR', answer.ok ? undefined : 'LOCAL_PASS_FAILED');
        return c.json({
          ...answer,
          ...(answer.ok ? { draft: false, file } : {}),
          toolId: checked.spec.toolId,
        });
      } finally {
        await rm(staging, { force: true });
      }
    } catch (error) {
      record('ERROR', isPortcullisError(error) ? error.code : 'INTERNAL');
      throw error;
    }
  });
}
