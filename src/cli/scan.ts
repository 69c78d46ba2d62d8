/**
 * `portcullis scan`, for people and for CI: reads the gateway's config (`--config`), an MCP client config
 * (`--from`, each server connected) or a tools JSON file (`--tools`, offline), governs every tool as the gateway
 * would, governs prompts, resources and server instructions with the gateway's own guards and live scanner, checks
 * shadowing between servers, and prints text, JSON or SARIF. Exit 0 clean, 1 when --fail-on is met, 2 on a usage or input error (docs/scan.md).
 */
import path from 'node:path';
import { analyzeCore, buildCore, governSnapshots, type AppCore } from '../app/index.ts';
import { processEnvLookup } from '../config/index.ts';
import { createMasker } from '../secrets/index.ts';
import { parseCommandArgs, parseSeconds, UsageError, type CommandIo } from './args.ts';
import { inheritedEnv } from './process-env.ts';
import { appFromProcess } from './process-env.ts';
import { connectClientServers, governingConfig, offlineServers, type ScanServer } from './scan-connect.ts';
import { parseLocatedJson, readBoundedFile, ScanInputError, type LocatedJson } from './scan-json.ts';
import { buildReport, FAIL_ON_VALUES, isFailOn, type FailOn, type ScanReport } from './scan-report.ts';
import { toSarif } from './scan-sarif.ts';
import { readClientConfig, readToolsFile, type ClientServerEntry } from './scan-sources.ts';
import { renderScanReport } from './scan-text.ts';

const USAGE = `usage: portcullis scan [--config FILE | --from CLIENT_CONFIG | --tools TOOLS_JSON]
                      [--format text|json|sarif] [--fail-on ${FAIL_ON_VALUES.join('|')}]
                      [--timeout SECONDS] [--concurrency N]

  --config FILE     the gateway's portcullis.yaml (default ./portcullis.yaml)
  --from FILE       an MCP client config (claude_desktop_config.json, .cursor/mcp.json, .vscode/mcp.json,
                    VS Code settings.json, Windsurf mcp_config.json, .mcp.json); every server is connected
  --tools FILE      a tools/list result, an array of tools, or { "servers": { name: { tools, ... } } }; offline
  --format          text (default), json, or sarif (SARIF 2.1.0)
  --fail-on         L0..L5: risk at or above, or any poisoning, shadowing or unreachable server (default L5);
                    error|warning|note: a finding at or above that level; poisoned: poisoning or shadowing;
                    any: any finding
  --timeout         seconds to wait for each server (default 60 with --config, 20 otherwise); bounds each handshake too
  --concurrency     servers connected at the same time with --from (default 8)
exit status: 0 clean, 1 --fail-on met, 2 usage or input error
`;

const FORMATS = ['text', 'json', 'sarif'] as const;
type Format = (typeof FORMATS)[number];

function print(report: ScanReport, format: Format, io: CommandIo): void {
  if (format === 'sarif') io.stdout(`${JSON.stringify(toSarif(report, io.cwd), null, 2)}\n`);
  else if (format === 'json') io.stdout(`${JSON.stringify(report, null, 2)}\n`);
  else io.stdout(renderScanReport(report));
}

/** Where an upstream and its tools sit in a scanned JSON file. */
function positions(file: LocatedJson, servers: readonly ScanServer[]) {
  const byId = new Map(servers.map((s) => [s.id, s]));
  return (id: string, tool?: string) => {
    const server = byId.get(id);
    const pointer = tool === undefined ? undefined : server?.toolPointers.get(tool);
    return pointer === undefined ? server?.position : file.positionOf(pointer);
  };
}

/** Values of a client config's env and headers: they are often written there in clear, so output masks them. */
function secretsOf(entries: readonly ClientServerEntry[]): string[] {
  return entries.flatMap((e) => {
    if ('problem' in e.upstream) return [];
    const { env, headers } = e.upstream.document as {
      env?: Record<string, string>;
      headers?: Record<string, string>;
    };
    return [...Object.values(env ?? {}), ...Object.values(headers ?? {})];
  });
}

async function scanFile(
  kind: 'client-config' | 'tools',
  file: string,
  failOn: FailOn,
  options: { timeoutMs: number; concurrency: number; cwd: string },
): Promise<ScanReport> {
  const source = path.resolve(options.cwd, file);
  const located = parseLocatedJson(readBoundedFile(source), file);
  const lookup = processEnvLookup();
  let servers: ScanServer[];
  let shape: string;
  let secrets: string[] = [];
  if (kind === 'client-config') {
    const config = readClientConfig(located, file);
    shape = config.shape;
    secrets = secretsOf(config.servers);
    servers = await connectClientServers(config.servers, source, {
      inheritedEnv: inheritedEnv(),
      lookup,
      timeoutMs: options.timeoutMs,
      concurrency: options.concurrency,
    });
  } else {
    servers = offlineServers(readToolsFile(located, file, path.basename(file, path.extname(file))));
    shape = 'tools';
  }
  const config = governingConfig(servers, source, lookup);
  const snapshots = servers.map((s) => s.snapshot);
  const governed = governSnapshots(config, snapshots);
  const masker = createMasker([...config.secrets, ...secrets]);
  const names = new Map(servers.map((s) => [s.id, s.name]));
  return buildReport(
    {
      source: { kind, file, shape },
      snapshots,
      assessments: governed.governance.servers(),
      tools: governed.tools,
      surfaces: governed.surfaces,
      shadowing: governed.shadowing,
      nameOf: (id) => names.get(id) ?? id,
      positionOf: positions(located, servers),
      mask: (text) => masker.mask(text),
      serverRisk: kind === 'client-config',
    },
    failOn,
  );
}

/** The report of a running gateway core whose upstreams have settled. */
function reportOfCore(
  gateway: Pick<AppCore, 'supervisor' | 'governance' | 'registry' | 'masker'>,
  file: string,
  failOn: FailOn,
): ScanReport {
  return buildReport(
    {
      source: { kind: 'config', file },
      snapshots: gateway.supervisor.snapshots(),
      assessments: gateway.governance.servers(),
      ...analyzeCore(gateway),
      nameOf: (id) => id,
      positionOf: () => undefined,
      mask: (text) => gateway.masker.mask(text),
      serverRisk: true,
    },
    failOn,
  );
}

async function scanGatewayConfig(
  configPath: string | undefined,
  failOn: FailOn,
  timeoutMs: number,
  cwd: string,
): Promise<ScanReport> {
  const { config, deps } = appFromProcess(configPath, cwd);
  // --timeout bounds each upstream's handshake as well as the wait for all of them.
  const gateway = buildCore(config, { ...deps, writeLog: () => {}, connectTimeoutMs: timeoutMs });
  gateway.start();
  try {
    await gateway.ready(timeoutMs);
    gateway.registry.rebuild();
    return reportOfCore(gateway, configPath ?? 'portcullis.yaml', failOn);
  } finally {
    await gateway.close();
  }
}

/** Runs `portcullis scan`. */
export async function runScan(args: string[], io: CommandIo): Promise<number> {
  const { values } = parseCommandArgs(args, {
    json: { type: 'boolean' },
    format: { type: 'string' },
    from: { type: 'string' },
    tools: { type: 'string' },
    'fail-on': { type: 'string' },
    timeout: { type: 'string' },
    concurrency: { type: 'string' },
  });
  if (values.help) {
    io.stdout(USAGE);
    return 0;
  }
  const failOn = values['fail-on'] ?? 'L5';
  if (!isFailOn(failOn))
    throw new UsageError(`--fail-on must be one of ${FAIL_ON_VALUES.join(', ')}, not "${failOn}"`);
  const format = values.format ?? (values.json ? 'json' : 'text');
  if (!(FORMATS as readonly string[]).includes(format))
    throw new UsageError(`--format must be text, json or sarif, not "${format}"`);
  const sources = [values.config, values.from, values.tools].filter((v) => v !== undefined);
  if (sources.length > 1) throw new UsageError('give one of --config, --from and --tools');
  const concurrency = values.concurrency === undefined ? 8 : Number(values.concurrency);
  if (!(Number.isInteger(concurrency) && concurrency >= 1 && concurrency <= 64))
    throw new UsageError(`--concurrency needs a whole number from 1 to 64, got "${values.concurrency}"`);
  const file = values.from ?? values.tools;
  const fileMode = file !== undefined;
  const timeoutMs =
    (values.timeout === undefined ? (fileMode ? 20 : 60) : parseSeconds('--timeout', values.timeout)) * 1000;
  let report: ScanReport;
  try {
    report =
      file !== undefined
        ? await scanFile(values.from !== undefined ? 'client-config' : 'tools', file, failOn, {
            timeoutMs,
            concurrency,
            cwd: io.cwd,
          })
        : await scanGatewayConfig(values.config, failOn, timeoutMs, io.cwd);
  } catch (error) {
    if (!(error instanceof ScanInputError)) throw error;
    io.stderr(`portcullis scan: ${error.message}\n`);
    return 2;
  }
  print(report, format as Format, io);
  return report.failed ? 1 : 0;
}
