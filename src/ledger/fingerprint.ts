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
