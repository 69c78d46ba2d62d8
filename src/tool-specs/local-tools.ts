/**
 * Local tools: Safe Tool Specs (the bundled catalog and the user directory `tools.dir`, watched and reloaded
 * without restart) published next to the upstream tools and run in the isolated-vm sandbox. Only ACTIVE specs
 * are exposed; the requirement check runs again on every call, so an env var that disappears takes a tool out.
 * code, staticVariables, sandboxOverrides, toolSafety, testValue and draft never leave this module.
 */
import { mkdirSync } from 'node:fs';
import type { CallToolResult, Tool } from '@modelcontextprotocol/server';
import type { EnvLookup } from '../secrets/index.ts';
import { PortcullisError, type ErrorCode } from '../errors/index.ts';
import type { ToolRunner } from '../sandbox/index.ts';
import {
  createPolicyResolver,
  evaluateSpec,
  lifecycleOf,
  loadSandboxPolicies,
  type PolicyResolver,
  type SafeToolSpec,
} from './index.ts';
import { loadBundledCatalog } from './catalog.ts';
import { loadSpecDirectory, watchSpecDirectory } from './directory.ts';
import { prepareToolCall } from './lifecycle.ts';
import { type SpecEvaluation } from './evaluate.ts';
import type { LocalTool, LocalToolProvider } from '../exposure/index.ts';

/** Options of the local tool provider. */
export interface LocalToolsOptions {
  bundled: boolean;
  dir?: string;
  profile?: string;
  lookup: EnvLookup;
  runner: ToolRunner;
  log(event: string, fields: Record<string, unknown>, level?: 'info' | 'warn' | 'error'): void;
}

/** The provider plus its lifecycle. */
export interface LocalTools extends LocalToolProvider {
  /** Resolves once the bundled catalog and the user directory were loaded (and Local-Passed) once. */
  ready: Promise<void>;
  close(): Promise<void>;
}

interface Entry {
  spec: SafeToolSpec;
  evaluation: SpecEvaluation;
  source: 'bundled' | 'user';
  /** Bundled specs must also have passed their Local Pass at start. */
  publishable: boolean;
}

/** Turns a sandbox value into an MCP tool result: text always, structuredContent for plain objects. */
export function toToolResult(value: unknown): CallToolResult {
  if (typeof value === 'string') return { content: [{ type: 'text', text: value }] };
  const text = value === undefined ? '' : JSON.stringify(value);
  const structured =
    value !== null && typeof value === 'object' && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  return { content: [{ type: 'text', text }], ...(structured ? { structuredContent: structured } : {}) };
}

/** Creates the provider and starts loading (and watching) the specs. */
export function createLocalTools(options: LocalToolsOptions): LocalTools {
  const listeners = new Set<() => void>();
  let entries = new Map<string, Entry>();
  let resolver: PolicyResolver | undefined;
  let stopWatching: (() => Promise<void>) | undefined;
  let bundled: Entry[] = [];
  let user: Entry[] = [];

  const changed = () => {
    const next = new Map<string, Entry>();
    for (const entry of bundled) next.set(entry.spec.name, entry);
    for (const entry of user) {
      if (next.has(entry.spec.name))
        options.log('local.override', { name: entry.spec.name, by: 'user directory' }, 'warn');
      next.set(entry.spec.name, entry);
    }
    entries = new Map([...next.values()].map((e) => [e.spec.toolId, e]));
    for (const listener of listeners) listener();
  };

  const evaluate = (spec: SafeToolSpec, source: Entry['source'], publishable: boolean): Entry | undefined => {
    const evaluation = evaluateSpec(spec, resolver as PolicyResolver, {
      categorySource: source === 'bundled' ? 'builtin' : 'user',
    });
    if (!evaluation.ok) {
      options.log(
        'local.spec_rejected',
        { name: spec.name, errors: evaluation.errors.map((e) => e.toJSON()) },
        'warn',
      );
      return undefined;
    }
    return { spec, evaluation: evaluation.value, source, publishable };
  };

  const loadUser = async (dir: string) => {
    // A configured directory that does not exist yet is created (empty), so bundled tools and the watcher work.
    mkdirSync(dir, { recursive: true });
    const directory = await loadSpecDirectory(dir);
    for (const failure of directory.failures) {
      options.log(
        'local.spec_failed',
        { file: failure.file, errors: failure.errors.map((e) => e.toJSON()) },
        'warn',
      );
    }
    user = directory.specs
      .map((spec) => evaluate(spec, 'user', true))
      .filter((e): e is Entry => e !== undefined);
  };

  const ready = (async () => {
    const policies = await loadSandboxPolicies();
    resolver = createPolicyResolver(policies, { defaultProfile: options.profile ?? null });
    if (options.bundled) {
      const catalog = await loadBundledCatalog({
        lookup: options.lookup,
        verify: { runner: options.runner, lookup: options.lookup, policyFor: resolver.policyFor },
      });
      for (const entry of catalog.entries) {
        if (entry.localPassError) {
          options.log(
            'local.local_pass_failed',
            { name: entry.spec.name, error: entry.localPassError.toJSON() },
            'warn',
          );
        }
      }
      bundled = catalog.entries
        .map((e) => evaluate(e.spec, 'bundled', e.publishable))
        .filter((e): e is Entry => e !== undefined);
    }
    if (options.dir) {
      const dir = options.dir;
      await loadUser(dir);
      stopWatching = watchSpecDirectory(
        dir,
        async () => {
          await loadUser(dir);
          for (const entry of user) options.runner.evict(entry.spec.toolId);
          changed();
        },
        { onError: (error) => options.log('local.watch_failed', { error: String(error) }, 'warn') },
      );
    }
    changed();
  })().catch((error: unknown) => {
    options.log(
      'local.load_failed',
      { error: error instanceof Error ? error.message : String(error) },
      'error',
    );
  });

  return {
    ready,
    list(): LocalTool[] {
      return [...entries.values()].map((entry) => ({
        toolId: entry.spec.toolId,
        source: entry.source,
        definition: entry.evaluation.mcpTool as Tool,
        active: entry.publishable && lifecycleOf(entry.spec, options.lookup).state === 'ACTIVE',
        hitl: entry.evaluation.humanInTheLoop.mode,
        governance: {
          sandboxRisk: { level: entry.evaluation.risk.level, reasons: entry.evaluation.risk.reasons },
          toolSafety: entry.evaluation.toolSafety,
          category: entry.spec.category ?? 'uncategorized',
          tags: entry.spec.tags,
          ...(entry.evaluation.humanInTheLoop.promptTemplate
            ? { promptTemplate: entry.evaluation.humanInTheLoop.promptTemplate }
            : {}),
        },
      }));
    },
    async run(toolId, args, signal) {
      const entry = entries.get(toolId);
      if (!entry) throw new PortcullisError('UNKNOWN_TOOL', `Unknown tool: ${toolId}`);
      const prepared = prepareToolCall(entry.spec, args, options.lookup);
      if (!prepared.ok) throw prepared.error;
      const result = await options.runner.run({
        toolId,
        toolName: entry.spec.name,
        code: entry.spec.code,
        args: prepared.args,
        secrets: prepared.secrets,
        policy: entry.evaluation.resolved.policy,
        signal,
      });
      if (!result.ok) {
        throw new PortcullisError(result.code as ErrorCode, `${entry.spec.name} failed: ${result.message}`, {
          ...(result.reason === undefined ? {} : { reason: result.reason }),
        });
      }
      return toToolResult(result.value);
    },
    onChange(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    async close() {
      await stopWatching?.();
    },
  };
}
