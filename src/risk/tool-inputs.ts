// How the tool-risk inputs are filled from a live tool and its catalog descriptor
// (docs/rules/risk-model.md#r-tool-2-inputs-from-the-live-tool-and-the-catalog).
import type { CatalogEntry, CatalogToolDescriptor, SideEffectScope } from './catalog-types.ts';
import type { ToolAnnotations } from './tool-definition.ts';

/** The catalog descriptor of a tool by exact name, or undefined (own keys only). */
export function findToolDescriptor(
  entry: CatalogEntry | null | undefined,
  toolName: string,
): CatalogToolDescriptor | undefined {
  if (entry === null || entry === undefined) return undefined;
  return Object.hasOwn(entry.tools, toolName) ? entry.tools[toolName] : undefined;
}

/**
 * The side-effect scope of a tool: the descriptor's explicit scope, else from its risk factors (exec or
 * irreversible → REMOTE_ADMIN_SCOPE, write → REMOTE_WRITE_SCOPE, else LOCAL_ONLY); UNKNOWN without a descriptor.
 */
export function inferSideEffectScope(descriptor: CatalogToolDescriptor | undefined): SideEffectScope {
  if (descriptor === undefined) return 'UNKNOWN';
  if (descriptor.sideEffectScope !== undefined) return descriptor.sideEffectScope;
  const factors = descriptor.riskFactors ?? {};
  if (factors.exec === true || factors.irreversible === true) return 'REMOTE_ADMIN_SCOPE';
  if (factors.write === true) return 'REMOTE_WRITE_SCOPE';
  return 'LOCAL_ONLY';
}

/**
 * The annotations risk is computed from: the live upstream annotations with every key the catalog
 * descriptor sets taking precedence (the catalog is the more trusted source). Undefined when neither has any.
 */
export function effectiveAnnotations(
  live: ToolAnnotations | null | undefined,
  descriptor: CatalogToolDescriptor | undefined,
): ToolAnnotations | undefined {
  const overrides = descriptor?.annotations;
  if (overrides === undefined) return live ?? undefined;
  return { ...(live ?? {}), ...overrides };
}
