/**
 * spec: Safe Tool Specs, Portcullis's own small JavaScript tools. The document model (schema, round-trip
 * parse/serialize, invariants), the sandbox policy resolver (baseline → profiles → overrides, one merge for
 * enforcement and scoring), the toolSafety block, the sandbox Risk Level, env placeholders and lifecycle,
 * lowering to an MCP tool, the Local Pass publish gate, directory loading/watching and the bundled catalog.
 */
export type { SafeToolSpec } from './types.ts';
export { formatSpecError } from './spec-error.ts';

export { deriveToolId, KNOWN_SPEC_FIELDS, parseSpec, serializeSpec, specToDocument } from './document.ts';

export { loadSandboxPolicies } from './policy-files.ts';

export { createPolicyResolver } from './resolver.ts';
export type { PolicyResolver } from './resolver.ts';
export { PROFILE_FIELD } from './resolver.ts';

export { lifecycleOf } from './lifecycle.ts';

export { evaluateSpec } from './evaluate.ts';

export { publishSpecFile, runLocalPass } from './local-pass.ts';
export type { LocalPassDeps, LocalPassOutcome } from './local-pass.ts';
export { findSpecFile, readSpecFile } from './directory.ts';

export { createLocalTools } from './local-tools.ts';
