/**
 * Resources the poisoning guard withheld answer as unknown (docs/architecture.md, "Guards"): their URI, or the
 * text of a withheld URI template, routes nowhere, even when another listed template would match it.
 */
import type { UpstreamSurface } from './prompts-resources.ts';

/** The surface with `withheld` URIs routed nowhere. */
export function withoutUris(surface: UpstreamSurface, withheld: ReadonlySet<string>): UpstreamSurface {
  if (withheld.size === 0) return surface;
  return {
    ...surface,
    routeResource: (uri) => (withheld.has(uri) ? undefined : surface.routeResource(uri)),
  };
}
