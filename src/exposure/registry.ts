/**
 * The exposed-tool registry: turns configured compositions, upstream tool lists and local tools into the one
 * deterministic list the gateway advertises, remembers withheld tools (so a call to them can be answered
 * precisely), and tells listeners when the advertised list changes.
 */
import type { Tool } from '@modelcontextprotocol/server';
import picomatch from 'picomatch';
import type { HitlMode, PortcullisConfig } from '../config/index.ts';
import type { UpstreamSnapshot } from '../upstream/index.ts';
import { assignAliases, defaultAlias, type AliasRequest } from './aliases.ts';
import type { ExposedTool, LocalToolProvider, UpstreamExposedTool } from './types.ts';
import type { JsonSchemaObject } from '../shared/index.ts';

/** The id of the implicit composition of an upstream configured with `tools.include`. */
export function implicitCompositionId(upstreamId: string): string {
  return `upstream:${upstreamId}`;
}

/** Decides exposure for the candidate list (risk, scan, fingerprint, shadowing); mutates and returns it. */
export type GovernFunction = (candidates: ExposedTool[]) => ExposedTool[];

/** Inputs of the registry. */
export interface RegistryDeps {
  config: PortcullisConfig;
  snapshots: () => readonly UpstreamSnapshot[];
  local?: LocalToolProvider;
  govern?: GovernFunction;
  /** Why arguments could never be checked against an input schema (the tool is withheld), or undefined. */
  inputSchemaProblem?: (schema: JsonSchemaObject | undefined) => string | undefined;
  /** Operator log: each tool withheld for its input schema is reported once per distinct problem. */
  log?: (event: string, fields: Record<string, unknown>, level: 'warn') => void;
}

/** The registry of exposed tools. */
export interface ToolRegistry {
  /** Recomputes the list; returns true when the advertised list changed (listeners are told). */
  rebuild(): boolean;
  /**
   * Marks the list stale without rebuilding: the next read (or settle()) rebuilds once, however many changes
   * arrived before it, so no reader ever sees a stale list.
   */
  invalidate(): void;
  /** Rebuilds now when invalidated since the last rebuild. */
  settle(): void;
  /** Every known tool, exposed or withheld, sorted by alias. */
  all(): readonly ExposedTool[];
  /** The advertised definitions, sorted by alias. */
  advertised(): readonly Tool[];
  /** The tool behind an exposed alias, or undefined (unknown or withheld). */
  resolve(alias: string): ExposedTool | undefined;
  /** Any known tool by alias, exposed or not (for precise errors and the admin API). */
  find(alias: string): ExposedTool | undefined;
  onChange(listener: () => void): () => void;
}

// A tool before its alias is assigned (distributes over the union, as Omit alone would not).
type PendingTool<T extends ExposedTool = ExposedTool> = T extends ExposedTool
  ? Omit<T, 'alias' | 'definition'> & { description?: string }
  : never;

interface Candidate {
  key: string;
  wanted: string;
  explicit: boolean;
  tool: PendingTool;
}

const isGlob = (pattern: string) => /[*?[\]{}()!]/.test(pattern);

function upstreamCandidates(
  config: PortcullisConfig,
  snapshot: UpstreamSnapshot,
  tools: readonly Tool[],
): Candidate[] {
  const upstream = config.upstreams.find((u) => u.id === snapshot.id);
  if (upstream === undefined) return [];
  const down = snapshot.state !== 'connected';
  const candidates: Candidate[] = [];
  const referenced = config.compositions.some((c) => c.members.some((m) => m.upstream === upstream.id));
  const base = (
    tool: Tool,
    composition: string,
    hitl: HitlMode | undefined,
  ): PendingTool<UpstreamExposedTool> => ({
    origin: 'upstream',
    upstream: upstream.id,
    upstreamTool: tool.name,
    composition,
    source: tool,
    hitl: hitl ?? 'DISABLED',
    exposed: !down,
    ...(down ? { withheldReason: 'upstream-down' as const } : {}),
  });

  if (upstream.tools !== undefined || !referenced) {
    const selection = upstream.tools ?? { include: ['*'], exclude: [], overrides: {} };
    const include = picomatch(selection.include.length > 0 ? selection.include : ['*']);
    const exclude = selection.exclude.length > 0 ? picomatch(selection.exclude) : () => false;
    for (const tool of tools) {
      if (!include(tool.name) || exclude(tool.name)) continue;
      const override = selection.overrides[tool.name] ?? {};
      candidates.push({
        key: `${implicitCompositionId(upstream.id)}::${tool.name}`,
        wanted: override.alias ?? defaultAlias(upstream.id, tool.name),
        explicit: override.alias !== undefined,
        tool: {
          ...base(tool, implicitCompositionId(upstream.id), override.hitl),
          ...(override.description === undefined ? {} : { description: override.description }),
        },
      });
    }
  }

  for (const composition of config.compositions) {
    for (const member of composition.members) {
      if (member.upstream !== upstream.id) continue;
      const matches = isGlob(member.tool) ? picomatch(member.tool) : (name: string) => name === member.tool;
      for (const tool of tools) {
        if (!matches(tool.name)) continue;
        const alias = isGlob(member.tool) ? undefined : member.alias;
        const entry: PendingTool<UpstreamExposedTool> = {
          ...base(tool, composition.id, member.hitl),
          ...(member.description === undefined || isGlob(member.tool)
            ? {}
            : { description: member.description }),
        };
        if (!composition.enabled && entry.exposed) {
          entry.exposed = false;
          entry.withheldReason = 'composition-disabled';
        }
        candidates.push({
          key: `${composition.id}::${tool.name}`,
          wanted: alias ?? defaultAlias(upstream.id, tool.name),
          explicit: alias !== undefined,
          tool: entry,
        });
      }
    }
  }
  return candidates;
}

function advertisedDefinition(alias: string, source: Tool, description: string | undefined): Tool {
  const definition: Tool = { ...source, name: alias };
  if (description !== undefined) definition.description = description;
  return definition;
}

/** Creates the registry; call invalidate() (or rebuild()) after upstream or local changes. */
export function createToolRegistry(deps: RegistryDeps): ToolRegistry {
  const listeners = new Set<() => void>();
  const lastKnownTools = new Map<string, readonly Tool[]>();
  let tools: ExposedTool[] = [];
  let byAlias = new Map<string, ExposedTool>();
  let advertisedList: Tool[] = [];
  let advertisedKey = '';
  const reportedSchemaProblems = new Map<string, string>();

  const withholdUncheckable = (tool: ExposedTool, key: string) => {
    const problem = deps.inputSchemaProblem?.(tool.source.inputSchema);
    if (problem === undefined) return;
    tool.exposed = false;
    tool.withheldReason = 'input-schema-unusable';
    tool.withheldDetail = problem;
    if (reportedSchemaProblems.get(key) === problem) return;
    reportedSchemaProblems.set(key, problem);
    deps.log?.(
      'gateway.tool_withheld',
      {
        alias: tool.alias,
        ...(tool.origin === 'upstream'
          ? { upstream: tool.upstream, tool: tool.upstreamTool }
          : { localTool: tool.localToolId }),
        reason: 'input-schema-unusable',
        detail: problem,
      },
      'warn',
    );
  };

  // Fifty upstreams connecting at start would otherwise rebuild (and re-govern) the whole list fifty times.
  let stale = false;
  const fresh = () => {
    if (stale) rebuild();
  };

  const rebuild = (): boolean => {
    stale = false;
    const candidates: Candidate[] = [];
    for (const snapshot of deps.snapshots()) {
      if (snapshot.state === 'connected') lastKnownTools.set(snapshot.id, snapshot.tools);
      const known = snapshot.state === 'connected' ? snapshot.tools : (lastKnownTools.get(snapshot.id) ?? []);
      candidates.push(...upstreamCandidates(deps.config, snapshot, known));
    }
    for (const local of deps.local?.list() ?? []) {
      candidates.push({
        key: `local::${local.toolId}`,
        wanted: local.definition.name,
        explicit: true,
        tool: {
          origin: 'local',
          localToolId: local.toolId,
          localSource: local.source,
          source: local.definition,
          hitl: local.hitl,
          exposed: local.active,
          ...(local.active ? {} : { withheldReason: 'local-not-active' as const }),
          governance: local.governance,
        },
      });
    }

    const assignment = assignAliases(
      candidates.map((c): AliasRequest => ({ key: c.key, wanted: c.wanted, explicit: c.explicit })),
    );
    const conflicted = new Set(assignment.conflicts.flatMap((c) => c.keys));
    let next: ExposedTool[] = candidates.map((candidate) => {
      const alias = assignment.aliases.get(candidate.key) ?? candidate.wanted;
      const { description, ...rest } = candidate.tool;
      const definition = advertisedDefinition(alias, rest.source, description);
      const tool: ExposedTool =
        rest.origin === 'upstream' ? { ...rest, alias, definition } : { ...rest, alias, definition };
      if (deps.config.exposure === 'builtin' && tool.origin === 'upstream' && tool.exposed) {
        tool.exposed = false;
        tool.withheldReason = 'exposure-mode';
      }
      if (deps.config.exposure === 'composed' && tool.origin === 'local' && tool.exposed) {
        tool.exposed = false;
        tool.withheldReason = 'exposure-mode';
      }
      if (conflicted.has(candidate.key) && tool.exposed) {
        tool.exposed = false;
        tool.withheldReason = 'alias-conflict';
      }
      if (tool.exposed) withholdUncheckable(tool, candidate.key);
      return tool;
    });
    if (deps.govern) next = deps.govern(next);
    next.sort((a, b) => (a.alias < b.alias ? -1 : a.alias > b.alias ? 1 : 0));

    tools = next;
    byAlias = new Map(next.map((t) => [t.alias, t]));
    advertisedList = next.filter((t) => t.exposed).map((t) => t.definition);
    const key = JSON.stringify(advertisedList);
    const changed = key !== advertisedKey;
    advertisedKey = key;
    if (changed) for (const listener of listeners) listener();
    return changed;
  };

  return {
    rebuild,
    invalidate() {
      stale = true;
    },
    settle: fresh,
    all: () => {
      fresh();
      return tools;
    },
    advertised: () => {
      fresh();
      return advertisedList;
    },
    resolve: (alias) => {
      fresh();
      const tool = byAlias.get(alias);
      return tool?.exposed ? tool : undefined;
    },
    find: (alias) => {
      fresh();
      return byAlias.get(alias);
    },
    onChange(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
