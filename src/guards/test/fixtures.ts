/** Shared by the guard tests: tools scored by the real risk engine, and the default guard policies. */
import type { Tool } from '@modelcontextprotocol/server';
import { buildConfig, type GuardsConfig, type PortcullisConfig } from '../../config/index.ts';
import type { LocalExposedTool, UpstreamExposedTool } from '../../exposure/index.ts';
import { assessServer, evaluateToolRisk, type RiskLevel } from '../../risk/index.ts';

/** A resolved config from a document (defaults applied), as the gateway would load it. */
export function configOf(doc: Record<string, unknown> = {}): PortcullisConfig {
  return buildConfig(doc, 'test.yaml', '/tmp', () => undefined);
}

/** The default guard policies. */
export const DEFAULT_GUARDS: GuardsConfig = configOf().guards;

/** A tool definition. */
export function definition(name: string, description = `Does ${name}.`): Tool {
  return { name, description, inputSchema: { type: 'object', properties: {} } };
}

/** An exposed upstream tool; `effective` replaces the scored level when given. */
export function upstreamTool(
  upstream: string,
  name: string,
  over: Partial<UpstreamExposedTool> & { effective?: RiskLevel } = {},
): UpstreamExposedTool {
  const { effective, ...rest } = over;
  const source = rest.source ?? definition(name);
  const server = assessServer({ transport: 'stdio', lastUsedAt: null }, null, 0);
  const risk = evaluateToolRisk({ server, tool: source, hitl: false, scan: { clean: true } });
  const alias = rest.alias ?? `${upstream}_${name}`;
  return {
    origin: 'upstream',
    upstream,
    upstreamTool: name,
    composition: `upstream:${upstream}`,
    alias,
    source,
    definition: { ...source, name: alias },
    hitl: 'DISABLED',
    exposed: true,
    governance: { risk: effective === undefined ? risk : { ...risk, final: effective, effective } },
    ...rest,
  };
}

/** An exposed local tool. */
export function localTool(toolId: string, over: Partial<LocalExposedTool> = {}): LocalExposedTool {
  const source = over.source ?? definition(toolId);
  return {
    origin: 'local',
    localToolId: toolId,
    localSource: 'bundled',
    alias: toolId,
    source,
    definition: source,
    hitl: 'DISABLED',
    exposed: true,
    ...over,
  };
}
