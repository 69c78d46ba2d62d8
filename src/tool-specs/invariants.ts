/**
 * Cross-field rules of a Safe Tool Spec (docs/rules/tool-specs.md#r-spec-4-cross-field-rules). They read the raw
 * document defensively so that they can run beside schema validation and report every problem at once.
 */
import type { PortcullisError } from '../errors/index.ts';
import { anchoredPlaceholder } from './deps.ts';
import { createSpecError, joinPointer } from './spec-error.ts';
import { parseTestValue } from './test-values.ts';
import type { ParamType, SafeToolSpec } from './types.ts';
import { bindingProblem, injectedGlobalNames, isBindableName } from '../sandbox/index.ts';

/** Most tags a spec may carry (R-SPEC-4). */
export const MAX_TAGS = 2;

/** Globals the sandbox injects; a param or static variable of the same name would shadow them. */
export const INJECTED_GLOBALS: readonly string[] = injectedGlobalNames();

const PARAM_TYPES = new Set<string>(['STRING', 'INTEGER', 'NUMBER', 'BOOLEAN', 'OBJECT', 'ARRAY']);

// The binding rules are the sandbox's own (one source of truth): isBindableName and bindingProblem come from there.
export { isBindableName };

/** Every `${…}` in `text` that does not follow the one placeholder grammar `${[A-Z_][A-Z0-9_]*}`. */
export function malformedPlaceholders(text: string): string[] {
  const bad: string[] = [];
  let from = text.indexOf('${');
  while (from !== -1) {
    const close = text.indexOf('}', from);
    const candidate = close === -1 ? text.slice(from) : text.slice(from, close + 1);
    if (anchoredPlaceholder(candidate) === undefined) bad.push(candidate);
    from = text.indexOf('${', from + 2);
  }
  return bad;
}

function asRecord(value: unknown): Record<string, unknown> | undefined {
  return value !== null && typeof value === 'object' && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

function checkParams(params: unknown, errors: PortcullisError[]): void {
  if (!Array.isArray(params)) return;
  const seen = new Map<string, number>();
  params.forEach((raw, index) => {
    const param = asRecord(raw);
    if (param === undefined) return;
    const name = typeof param['name'] === 'string' ? param['name'] : undefined;
    if (name !== undefined && name !== '') {
      const problem = bindingProblem(name);
      if (problem !== undefined)
        errors.push(createSpecError('SPEC_INVARIANT', joinPointer('params', index, 'name'), problem));
      const first = seen.get(name);
      if (first !== undefined) {
        errors.push(
          createSpecError(
            'SPEC_INVARIANT',
            joinPointer('params', index, 'name'),
            `param "${name}" is declared twice (first at /params/${first}); param names must be unique`,
          ),
        );
      } else seen.set(name, index);
    }
    const label = name === undefined ? `param #${index}` : `param "${name}"`;
    const testValue = param['testValue'];
    if (param['required'] === true && (typeof testValue !== 'string' || testValue.trim() === '')) {
      errors.push(
        createSpecError(
          'SPEC_INVARIANT',
          joinPointer('params', index, 'testValue'),
          `${label} is required but has no testValue; add a representative sample string the Local Pass can run with`,
        ),
      );
      return;
    }
    const type = param['type'];
    if (typeof testValue === 'string' && typeof type === 'string' && PARAM_TYPES.has(type)) {
      const parsed = parseTestValue(type as ParamType, testValue);
      if (!parsed.ok && (param['required'] === true || testValue.trim() !== '')) {
        errors.push(
          createSpecError(
            'SPEC_INVARIANT',
            joinPointer('params', index, 'testValue'),
            `${label} has type ${type} but its testValue ${parsed.message}`,
          ),
        );
      }
    }
  });
}

function checkStaticVariables(entries: unknown, errors: PortcullisError[]): void {
  if (!Array.isArray(entries)) return;
  entries.forEach((raw, index) => {
    const entry = asRecord(raw);
    if (entry === undefined) return;
    for (const [key, value] of Object.entries(entry)) {
      const problem = bindingProblem(key);
      if (problem !== undefined) {
        errors.push(createSpecError('SPEC_INVARIANT', joinPointer('staticVariables', index, key), problem));
      }
      if (typeof value !== 'string') continue;
      for (const bad of malformedPlaceholders(value)) {
        errors.push(
          createSpecError(
            'SPEC_INVARIANT',
            joinPointer('staticVariables', index, key),
            `"${bad}" is not a valid placeholder: names are upper-case letters, digits and _ , not starting with a digit, as in \${API_KEY}`,
          ),
        );
      }
    }
  });
}

/** Every cross-field problem of one raw spec document, as SPEC_INVARIANT errors; empty when it holds. */
export function checkSpecInvariants(document: unknown): PortcullisError[] {
  const spec = asRecord(document);
  if (spec === undefined) return [];
  const errors: PortcullisError[] = [];
  const tags = spec['tags'];
  if (Array.isArray(tags) && tags.length > MAX_TAGS) {
    errors.push(
      createSpecError(
        'SPEC_INVARIANT',
        '/tags',
        `at most ${MAX_TAGS} tags are allowed, found ${tags.length}; keep the two cohort labels that matter most`,
      ),
    );
  }
  checkParams(spec['params'], errors);
  checkStaticVariables(spec['staticVariables'], errors);
  return errors;
}

/**
 * Conflicts across a set of specs: two published (non-draft) specs with one name (drafts are exempt),
 * or two specs with one toolId (R-SPEC-2). Each error names every source involved.
 */
export function findSpecConflicts(specs: readonly SafeToolSpec[]): PortcullisError[] {
  const errors: PortcullisError[] = [];
  const group = (key: (spec: SafeToolSpec) => string | undefined): Map<string, SafeToolSpec[]> => {
    const groups = new Map<string, SafeToolSpec[]>();
    for (const spec of specs) {
      const k = key(spec);
      if (k === undefined) continue;
      groups.set(k, [...(groups.get(k) ?? []), spec]);
    }
    return groups;
  };
  const sources = (list: SafeToolSpec[]): string[] => list.map((s) => s.source ?? `(in memory) ${s.name}`);
  for (const [name, list] of group((s) => (s.draft ? undefined : s.name))) {
    if (list.length < 2) continue;
    errors.push(
      createSpecError(
        'SPEC_INVARIANT',
        '/name',
        `${list.length} published specs share the name "${name}" (${sources(list).join(', ')}); rename one or mark it draft`,
        { reason: 'duplicate-name', details: { name, sources: sources(list) } },
      ),
    );
  }
  for (const [toolId, list] of group((s) => s.toolId)) {
    if (list.length < 2) continue;
    errors.push(
      createSpecError(
        'SPEC_INVARIANT',
        '/toolId',
        `${list.length} specs share the toolId ${toolId} (${sources(list).join(', ')}); toolIds must be unique`,
        { reason: 'duplicate-tool-id', details: { toolId, sources: sources(list) } },
      ),
    );
  }
  return errors;
}
