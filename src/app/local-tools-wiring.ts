/** Wires the local (Safe Tool Spec) tools and the sandbox runner they run in, when the config asks for them. */
import { mkdirSync } from 'node:fs';
import type { PortcullisConfig } from '../config/index.ts';
import type { LocalToolProvider } from '../exposure/index.ts';
import { createToolRunner, type SandboxRunner, type ToolRunner } from '../sandbox/index.ts';
import type { Logger } from '../telemetry/index.ts';
import { createLocalTools } from '../tool-specs/index.ts';
import type { AppDeps } from './core.ts';

/** The local tools of an app. */
export interface LocalToolsWiring {
  /** The provider the registry and pipeline use (a test's own, the configured one, or none). */
  provider: LocalToolProvider | undefined;
  /** Resolves once the configured local tools are loaded (undefined when the provider is not ours). */
  ready: Promise<void> | undefined;
  /** Quarantine control of the default sandbox runner, for the admin API. */
  sandbox: Pick<SandboxRunner, 'quarantined' | 'unquarantine'> | undefined;
  /** A fresh runner built as the gateway's own (its workspace), for the studio's Local Pass; the caller closes it. */
  passRunner(): ToolRunner;
  /** Closes what this wiring opened (never a runner or provider the caller passed in). */
  close(): Promise<void>;
}

/** Builds the runner and the local tools the config asks for. */
export function buildLocalTools(
  config: PortcullisConfig,
  deps: Pick<AppDeps, 'local' | 'lookup' | 'runner'>,
  logger: Pick<Logger, 'log'>,
): LocalToolsWiring {
  const ownRunner = deps.runner === undefined ? createDefaultRunner(config, logger) : undefined;
  const runner: ToolRunner | undefined = deps.runner ?? ownRunner;
  const created =
    deps.local === undefined && runner && (config.tools.bundled || config.tools.dir !== undefined)
      ? createLocalTools({
          bundled: config.tools.bundled,
          ...(config.tools.dir === undefined ? {} : { dir: config.tools.dir }),
          ...(config.tools.profile === undefined ? {} : { profile: config.tools.profile }),
          lookup: deps.lookup ?? (() => undefined),
          runner,
          log: (event, fields, level) => logger.log(event, fields, level),
        })
      : undefined;
  return {
    provider: deps.local ?? created,
    ready: created?.ready,
    sandbox: runner !== undefined && isSandboxRunner(runner) ? runner : undefined,
    passRunner: () => createDefaultRunner(config, logger),
    async close() {
      await created?.close();
      await ownRunner?.close();
    },
  };
}

function isSandboxRunner(runner: ToolRunner): runner is SandboxRunner {
  return (
    'quarantined' in runner && typeof runner.quarantined === 'function' && runner.unquarantine !== undefined
  );
}

function createDefaultRunner(config: PortcullisConfig, logger: Pick<Logger, 'log'>): SandboxRunner {
  mkdirSync(config.tools.workspace, { recursive: true });
  return createToolRunner({
    workspaceDir: config.tools.workspace,
    onCatastrophicError: ({ toolId, message, failures, quarantined }) =>
      logger.log(
        'sandbox.catastrophic',
        {
          toolId,
          message,
          failures,
          quarantined,
          action: quarantined
            ? `tool quarantined; lift with POST /admin/api/tools/${toolId}/unquarantine`
            : 'isolate discarded; the next call gets a fresh one',
        },
        'error',
      ),
  });
}
