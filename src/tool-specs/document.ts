/**
 * Reading and writing one Safe Tool Spec document: schema + invariants, the defaults, UUID v5 toolIds, and a
 * round trip that keeps unknown top-level fields in their place (docs/rules/tool-specs.md, R-SPEC-1 to
 * R-SPEC-5).
 */
import { v5 as uuidV5 } from 'uuid';
import type { PortcullisError } from '../errors/index.ts';
import { checkSpecInvariants } from './invariants.ts';
import { validateSpecDocument } from './schema.ts';
import { createSpecError, type SpecResult } from './spec-error.ts';
import type {
  HumanInTheLoop,
  SafeToolSpec,
  SandboxOverrides,
  StaticVariableEntry,
  ToolParamSpec,
} from './types.ts';

/**
 * The namespace under which Portcullis derives toolIds: toolId = UUID v5(name, this namespace) (R-SPEC-2).
 * Fixed forever: changing it would change every derived toolId and orphan audit history.
 */
export const TOOL_ID_NAMESPACE = '317fc9d2-8577-424d-bd07-f9f6d79e0a6f';

/** The canonical order of the fields this version knows; new fields are written in this order. */
export const KNOWN_SPEC_FIELDS = [
  'toolId',
  'name',
  'description',
  'category',
  'tags',
  'params',
  'staticVariables',
  'code',
  'codeType',
  'sandboxOverrides',
  'toolSafety',
  'humanInTheLoop',
  'draft',
  'createTimestamp',
  'updateTimestamp',
] as const;

const KNOWN = new Set<string>(KNOWN_SPEC_FIELDS);

/** The toolId derived from a tool name (UUID v5 under TOOL_ID_NAMESPACE). */
export function deriveToolId(name: string): string {
  return uuidV5(name, TOOL_ID_NAMESPACE);
}

// Own-property writes: a document key such as "__proto__" must stay data, never become a prototype.
function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

function parseText(text: string): { ok: true; value: unknown } | { ok: false; error: PortcullisError } {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch (cause) {
    const detail = cause instanceof Error ? cause.message : String(cause);
    return {
      ok: false,
      error: createSpecError(
        'SPEC_PARSE',
        '',
        `the document is not valid JSON (${detail}); fix the syntax first`,
      ),
    };
  }
}

function normalize(doc: Record<string, unknown>, source: string | null): SafeToolSpec {
  const name = doc['name'] as string;
  const extensions: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(doc)) if (!KNOWN.has(key)) setOwn(extensions, key, value);
  return {
    toolId: (doc['toolId'] as string | null | undefined) ?? deriveToolId(name),
    name,
    description: (doc['description'] as string | null | undefined) ?? '',
    category: (doc['category'] as string | null | undefined) ?? null,
    tags: (doc['tags'] as string[] | null | undefined) ?? [],
    params: (doc['params'] as ToolParamSpec[] | null | undefined) ?? [],
    staticVariables: (doc['staticVariables'] as StaticVariableEntry[] | null | undefined) ?? [],
    code: doc['code'] as string,
    codeType: 'Javascript',
    sandboxOverrides: (doc['sandboxOverrides'] as SandboxOverrides | null | undefined) ?? {},
    toolSafety: (doc['toolSafety'] as Record<string, unknown> | null | undefined) ?? {},
    draft: (doc['draft'] as boolean | null | undefined) ?? true,
    createTimestamp: (doc['createTimestamp'] as number | null | undefined) ?? null,
    updateTimestamp: (doc['updateTimestamp'] as number | null | undefined) ?? null,
    humanInTheLoop: (doc['humanInTheLoop'] as HumanInTheLoop | null | undefined) ?? null,
    extensions,
    keyOrder: Object.keys(doc),
    source,
  };
}

/**
 * Parses a spec from JSON text or an already-parsed value: schema (SPEC_PARSE) and cross-field rules
 * (SPEC_INVARIANT) are all reported together; on success the defaults are applied (R-SPEC-1). Never throws.
 */
export function parseSpec(input: unknown, source?: string): SpecResult<SafeToolSpec> {
  let doc: unknown;
  if (typeof input === 'string') {
    const parsed = parseText(input);
    if (!parsed.ok) return { ok: false, errors: [parsed.error] };
    doc = parsed.value;
  } else {
    doc = structuredClone(input);
  }
  const errors = [...validateSpecDocument(doc), ...checkSpecInvariants(doc)];
  if (errors.length > 0) return { ok: false, errors };
  return { ok: true, value: normalize(doc as Record<string, unknown>, source ?? null) };
}

function knownValue(spec: SafeToolSpec, key: (typeof KNOWN_SPEC_FIELDS)[number]): unknown {
  switch (key) {
    case 'createTimestamp':
    case 'updateTimestamp':
    case 'humanInTheLoop':
      return spec[key] ?? undefined;
    default:
      return spec[key];
  }
}

/** The spec as a plain JSON document: original key order first, unknown fields kept, defaults written out. */
export function specToDocument(spec: SafeToolSpec): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const put = (key: string): void => {
    if (Object.hasOwn(out, key)) return;
    if (KNOWN.has(key)) {
      const value = knownValue(spec, key as (typeof KNOWN_SPEC_FIELDS)[number]);
      if (value !== undefined) setOwn(out, key, structuredClone(value));
    } else if (Object.hasOwn(spec.extensions, key)) {
      setOwn(out, key, structuredClone(spec.extensions[key]));
    }
  };
  for (const key of spec.keyOrder) put(key);
  for (const key of KNOWN_SPEC_FIELDS) put(key);
  for (const key of Object.keys(spec.extensions)) put(key);
  return out;
}

/** Serializes a spec as pretty JSON text (two-space indent, trailing newline), the on-disk form. */
export function serializeSpec(spec: SafeToolSpec): string {
  return JSON.stringify(specToDocument(spec), null, 2) + '\n';
}
