/**
 * Prompts and resources of exposed upstreams, namespaced like tools: prompt names become
 * `<upstreamId>_<name>` unless the upstream's `prompts.overrides` gives an alias, resource names likewise;
 * resource URIs are kept (clients dereference them) and routed back to the upstream that listed them. When two
 * upstreams list the same URI, or their prompts end up with the same name, the first in config order keeps it.
 */
import type { Prompt, Resource } from '@modelcontextprotocol/server';
import { UriTemplate } from '@modelcontextprotocol/server';
import type { PromptOverride } from '../config/index.ts';
import type { UpstreamSnapshot } from '../upstream/index.ts';
import { defaultAlias } from './aliases.ts';

/** A namespaced prompt and where it comes from. */
export interface ExposedPrompt {
  name: string;
  upstream: string;
  upstreamName: string;
  definition: Prompt;
}

/** The namespaced prompts and resources of the given upstreams. */
export interface UpstreamSurface {
  prompts: ExposedPrompt[];
  resources: Resource[];
  resourceTemplates: { name: string; uriTemplate: string; [key: string]: unknown }[];
  /** Which upstream serves a resource URI (listed, or matched by a template), or undefined. */
  routeResource(uri: string): string | undefined;
  findPrompt(name: string): ExposedPrompt | undefined;
}

/** Builds the surface from connected upstream snapshots (in config order) and each upstream's prompt overrides. */
export function buildUpstreamSurface(
  snapshots: readonly UpstreamSnapshot[],
  promptOverridesOf: (upstream: string) => Readonly<Record<string, PromptOverride>> | undefined = () =>
    undefined,
): UpstreamSurface {
  const prompts: ExposedPrompt[] = [];
  const resources: Resource[] = [];
  const templates: UpstreamSurface['resourceTemplates'] = [];
  const owners = new Map<string, string>();
  const templateOwners: { template: UriTemplate; upstream: string }[] = [];
  const byName = new Map<string, ExposedPrompt>();
  for (const snapshot of snapshots) {
    if (snapshot.state !== 'connected') continue;
    const overrides = promptOverridesOf(snapshot.id);
    for (const prompt of snapshot.prompts) {
      const override = Object.hasOwn(overrides ?? {}, prompt.name) ? overrides?.[prompt.name] : undefined;
      const name = override?.alias ?? defaultAlias(snapshot.id, prompt.name);
      if (byName.has(name)) continue;
      const exposed = {
        name,
        upstream: snapshot.id,
        upstreamName: prompt.name,
        definition: {
          ...prompt,
          name,
          ...(override?.description === undefined ? {} : { description: override.description }),
        },
      };
      prompts.push(exposed);
      byName.set(name, exposed);
    }
    for (const resource of snapshot.resources) {
      if (owners.has(resource.uri)) continue;
      owners.set(resource.uri, snapshot.id);
      resources.push({ ...resource, name: defaultAlias(snapshot.id, resource.name) });
    }
    for (const template of snapshot.resourceTemplates as unknown as { name: string; uriTemplate: string }[]) {
      templates.push({ ...template, name: defaultAlias(snapshot.id, template.name) });
      try {
        templateOwners.push({ template: new UriTemplate(template.uriTemplate), upstream: snapshot.id });
      } catch {
        // An unparseable template cannot route reads; its listed resources still can.
      }
    }
  }
  return {
    prompts,
    resources,
    resourceTemplates: templates,
    routeResource(uri) {
      return owners.get(uri) ?? templateOwners.find((t) => t.template.match(uri) !== null)?.upstream;
    },
    findPrompt: (name) => byName.get(name),
  };
}
