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
import { defaultAlias, type Profile } from '../exposure/index.ts';

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
  /** Which upstream serves a resource URI (listed, a listed template as written, or matched by one), or undefined. */
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
  const templateTexts = new Map<string, string>();
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
      if (!templateTexts.has(template.uriTemplate)) templateTexts.set(template.uriTemplate, snapshot.id);
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
      return (
        owners.get(uri) ??
        templateTexts.get(uri) ??
        templateOwners.find((t) => t.template.match(uri) !== null)?.upstream
      );
    },
    findPrompt: (name) => byName.get(name),
  };
}

/**
 * The part of `surface` a profile serves: prompts, resources and templates by exposed name. A URI routes only
 * when it is a listed resource of the profile, or a template of the profile names or matches it; anything else
 * is unknown to the profile's callers, on list, read, subscribe and completion alike.
 */
export function profileSurface(
  surface: UpstreamSurface,
  profile: Pick<Profile, 'hasPrompt' | 'hasResource'>,
): UpstreamSurface {
  const prompts = surface.prompts.filter((p) => profile.hasPrompt(p.name));
  const resources = surface.resources.filter((r) => profile.hasResource(r.name));
  const resourceTemplates = surface.resourceTemplates.filter((t) => profile.hasResource(t.name));
  const uris = new Set(resources.map((r) => r.uri));
  const templates = resourceTemplates.map((t): { text: string; template: UriTemplate | undefined } => {
    try {
      return { text: t.uriTemplate, template: new UriTemplate(t.uriTemplate) };
    } catch {
      // An unparseable template still routes its own text, as the unfiltered surface does.
      return { text: t.uriTemplate, template: undefined };
    }
  });
  const served = (uri: string) =>
    uris.has(uri) || templates.some((t) => t.text === uri || (t.template?.match(uri) ?? null) !== null);
  return {
    prompts,
    resources,
    resourceTemplates,
    routeResource: (uri) => (served(uri) ? surface.routeResource(uri) : undefined),
    findPrompt: (name) => (profile.hasPrompt(name) ? surface.findPrompt(name) : undefined),
  };
}

/** What a `completion/complete` reference points at. */
export type CompletionRef = { type: 'ref/prompt'; name: string } | { type: 'ref/resource'; uri: string };

/**
 * The upstream that answers completions for `ref`, with the reference as that upstream knows it (its own prompt
 * name instead of the alias); undefined when no exposed prompt or resource matches.
 */
export function routeCompletion(
  surface: Pick<UpstreamSurface, 'findPrompt' | 'routeResource'>,
  ref: CompletionRef,
): { upstream: string; ref: CompletionRef } | undefined {
  if (ref.type === 'ref/prompt') {
    const prompt = surface.findPrompt(ref.name);
    return prompt && { upstream: prompt.upstream, ref: { type: 'ref/prompt', name: prompt.upstreamName } };
  }
  const upstream = surface.routeResource(ref.uri);
  return upstream === undefined ? undefined : { upstream, ref };
}
