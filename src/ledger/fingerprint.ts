// Tool fingerprints: the Portcullis profile (annotations included) and the reference-compatible one.
import { canonicalJson, sha256Hex } from '../shared/index.ts';

/** The Portcullis tool profile: name, title, description, inputSchema, outputSchema, annotations. */
export const TOOL_FINGERPRINT_PROFILE = 'portcullis-tool/v1';

/** A digest with the id of the profile that produced it; the two are stored side by side. */
export interface Fingerprint {
  /** SHA-256 of the canonical content, 64 lower-case hex characters. */
  readonly hash: string;
  readonly profile: string;
}

/** The parts of a tool definition that a fingerprint covers (plain JSON data). */
export interface FingerprintableTool {
  readonly name: string;
  readonly title?: string | undefined;
  readonly description?: string | undefined;
  readonly inputSchema?: unknown;
  readonly outputSchema?: unknown;
  readonly annotations?: unknown;
}

/**
 * The canonical content hashed by `fingerprintTool`: the six model-visible fields, each absent one as
 * JSON null, so any change to any of them (annotations too, R-LEDGER-2) changes the hash.
 */
export function toolFingerprintContent(tool: FingerprintableTool): string {
  return canonicalJson(
    {
      annotations: tool.annotations ?? null,
      description: tool.description ?? null,
      inputSchema: tool.inputSchema ?? null,
      name: tool.name,
      outputSchema: tool.outputSchema ?? null,
      title: tool.title ?? null,
    },
    'strict',
  );
}

/** Fingerprints a tool definition with the Portcullis profile (docs/rules/ledger.md, R-LEDGER-2). */
export function fingerprintTool(tool: FingerprintableTool): Fingerprint {
  return { hash: sha256Hex(toolFingerprintContent(tool)), profile: TOOL_FINGERPRINT_PROFILE };
}

/** The five annotation keys of the reference profile, always present, null when absent. */
interface ReferenceAnnotations {
  readonly title?: unknown;
  readonly readOnlyHint?: unknown;
  readonly destructiveHint?: unknown;
  readonly idempotentHint?: unknown;
  readonly openWorldHint?: unknown;
}

/**
 * The reference's `hashMcpTool` (docs/rules/ledger.md#r-ledger-3-reference-compatible-digest): SHA-256 of
 * the canonical
 * `{"annotations":{5 keys, null when absent},"description":…,"inputSchema":…,"name":…}`, with name and
 * description null → "" and a null schema as JSON null. Reproduces the reference's pinned digest.
 */
export function hashMcpTool(
  name: string | null | undefined,
  description: string | null | undefined,
  inputSchema: unknown,
  annotations?: ReferenceAnnotations | null,
): string {
  const hints = annotations ?? {};
  return sha256Hex(
    canonicalJson(
      {
        annotations: {
          destructiveHint: hints.destructiveHint ?? null,
          idempotentHint: hints.idempotentHint ?? null,
          openWorldHint: hints.openWorldHint ?? null,
          readOnlyHint: hints.readOnlyHint ?? null,
          title: hints.title ?? null,
        },
        description: description ?? '',
        inputSchema: inputSchema ?? null,
        name: name ?? '',
      },
      'strict',
    ),
  );
}

/** A model-visible item of an upstream besides its tools. */
export type SurfaceKind = 'prompt' | 'resource' | 'resource-template' | 'server-instructions';

/** The profile id of each surface's fingerprint (docs/rules/ledger.md#r-ledger-8-prompts-resources-and-instructions). */
export const SURFACE_FINGERPRINT_PROFILES: Readonly<Record<SurfaceKind, string>> = {
  prompt: 'portcullis-prompt/v1',
  resource: 'portcullis-resource/v1',
  'resource-template': 'portcullis-resource-template/v1',
  'server-instructions': 'portcullis-instructions/v1',
};

/** The fields of a prompt, resource or template a fingerprint covers (plain JSON data, as the upstream sent it). */
export interface FingerprintableSurfaceItem {
  readonly name: string;
  readonly title?: string | undefined;
  readonly description?: string | undefined;
  readonly arguments?: readonly FingerprintablePromptArgument[] | undefined;
  readonly uri?: string | undefined;
  readonly uriTemplate?: string | undefined;
  readonly mimeType?: string | undefined;
  readonly annotations?: unknown;
}

/** One argument of a prompt as a fingerprint covers it. */
export interface FingerprintablePromptArgument {
  readonly name: string;
  readonly title?: string | undefined;
  readonly description?: string | undefined;
  readonly required?: boolean | undefined;
}

/** One surface item to fingerprint: a prompt, resource or template, or an upstream's server instructions. */
export type FingerprintableSurface =
  | { readonly kind: 'prompt' | 'resource' | 'resource-template'; readonly item: FingerprintableSurfaceItem }
  | { readonly kind: 'server-instructions'; readonly instructions: string };

/** The name a surface item's ledger record is kept under within its kind. */
export function surfaceLedgerName(surface: FingerprintableSurface): string {
  if (surface.kind === 'server-instructions') return 'instructions';
  if (surface.kind === 'resource') return surface.item.uri ?? surface.item.name;
  if (surface.kind === 'resource-template') return surface.item.uriTemplate ?? surface.item.name;
  return surface.item.name;
}

/**
 * The canonical content a surface fingerprint covers: every model-visible field of its kind, each absent one as
 * JSON null (a prompt's arguments field by field, in the upstream's order), so any change to any of them changes
 * the hash.
 */
export function surfaceFingerprintContent(surface: FingerprintableSurface): string {
  if (surface.kind === 'server-instructions')
    return canonicalJson({ instructions: surface.instructions }, 'strict');
  const item = surface.item;
  const common = { description: item.description ?? null, name: item.name, title: item.title ?? null };
  if (surface.kind === 'prompt') {
    const args = (item.arguments ?? []).map((argument) => ({
      description: argument.description ?? null,
      name: argument.name,
      required: argument.required ?? null,
      title: argument.title ?? null,
    }));
    return canonicalJson({ ...common, arguments: args }, 'strict');
  }
  const where =
    surface.kind === 'resource' ? { uri: item.uri ?? null } : { uriTemplate: item.uriTemplate ?? null };
  return canonicalJson(
    { ...common, ...where, annotations: item.annotations ?? null, mimeType: item.mimeType ?? null },
    'strict',
  );
}
