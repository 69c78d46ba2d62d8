/**
 * Governs lists `scan` gathered from files or connections without running a gateway: the gateway's own tool
 * registry and governance (risk, poisoning scan, fingerprint, composition gate) over the gathered upstream
 * snapshots, an in-memory ledger, the poisoning scanner over prompts, resources and server instructions, and the
 * risk engine's shadowing rules over every tool of every server as one client sees them.
 */
import type { Prompt, Resource, ResourceTemplateType } from '@modelcontextprotocol/client';
import { createArgumentValidator } from '../calls/index.ts';
import { loadServerCatalog, type PortcullisConfig } from '../config/index.ts';
import { createToolRegistry, type ExposedTool } from '../exposure/index.ts';
import { createGovernance, type Governance } from '../guards/index.ts';
import { createLedger } from '../ledger/index.ts';
import { createPoisoningScanner, type PoisoningScanner } from '../poisoning/index.ts';
import {
  checkAliasCollisions,
  checkCrossServerReferences,
  checkSelfScopeViolations,
  toolMetadataKey,
  type ComposedTool,
  type ShadowingViolation,
} from '../risk/index.ts';
import { canonicalJson, sha256Hex } from '../shared/index.ts';
import { openStore } from '../store/index.ts';
import type { UpstreamSnapshot } from '../upstream/index.ts';

/** A model-visible surface besides tools. */
export type SurfaceKind = 'prompt' | 'resource' | 'resource-template' | 'server-instructions';

/** A poisoning hit on a prompt, resource, resource template or server instructions. */
export interface SurfaceHit {
  upstream: string;
  kind: SurfaceKind;
  name: string;
  fieldPath: string;
  patternId: string;
  matchedText: string;
  digest: string;
}

/** A shadowing rule broken between the servers of one scan. */
export interface ShadowingHit {
  rule: ShadowingViolation['rule'];
  upstream: string;
  tool: string;
  detail: string;
}

/** The governed view of gathered snapshots. */
export interface GovernedScan {
  governance: Pick<Governance, 'servers'>;
  tools: readonly ExposedTool[];
  surfaces: SurfaceHit[];
  shadowing: ShadowingHit[];
}

const digestOf = (value: unknown) => sha256Hex(canonicalJson(value, 'stringify'));

/** The strings of a prompt, resource or template a model reads, with their field paths. */
function surfaceStrings(
  kind: SurfaceKind,
  item: Prompt | Resource | ResourceTemplateType,
): [string, unknown][] {
  const common: [string, unknown][] = [
    ['name', item.name],
    ['title', item.title],
    ['description', item.description],
  ];
  if (kind === 'prompt') {
    const prompt = item as Prompt;
    return [
      ...common,
      ...(prompt.arguments ?? []).flatMap((arg, i): [string, unknown][] => [
        [`arguments[${i}].name`, arg.name],
        [`arguments[${i}].description`, arg.description],
      ]),
    ];
  }
  const uri =
    kind === 'resource'
      ? ['uri', (item as Resource).uri]
      : ['uriTemplate', (item as ResourceTemplateType).uriTemplate];
  return [...common, uri as [string, unknown], ['mimeType', (item as Resource).mimeType]];
}

function scanSurfaces(scanner: PoisoningScanner, snapshot: UpstreamSnapshot): SurfaceHit[] {
  const hits: SurfaceHit[] = [];
  const scan = (kind: SurfaceKind, name: string, digest: string, strings: [string, unknown][]) => {
    for (const [fieldPath, text] of strings) {
      if (typeof text !== 'string') continue;
      for (const match of scanner.scanText(text).matches)
        hits.push({
          upstream: snapshot.id,
          kind,
          name,
          fieldPath,
          patternId: match.patternId,
          matchedText: match.matchedText,
          digest,
        });
    }
  };
  for (const prompt of snapshot.prompts)
    scan('prompt', prompt.name, digestOf(prompt), surfaceStrings('prompt', prompt));
  for (const resource of snapshot.resources)
    scan('resource', resource.name, digestOf(resource), surfaceStrings('resource', resource));
  for (const template of snapshot.resourceTemplates)
    scan(
      'resource-template',
      template.name,
      digestOf(template),
      surfaceStrings('resource-template', template),
    );
  if (snapshot.instructions !== undefined)
    scan('server-instructions', '', digestOf(snapshot.instructions), [
      ['instructions', snapshot.instructions],
    ]);
  return hits;
}

/**
 * R1 (one tool name offered by two servers), R2 (a description telling the model to use another server's tool)
 * and R3 (a description naming another server) over every listed tool, as a client that loads all the servers
 * of the file at once would see them.
 */
function scanShadowing(snapshots: readonly UpstreamSnapshot[]): ShadowingHit[] {
  const connected = snapshots.filter((s) => s.state === 'connected');
  const members = connected.flatMap((s) =>
    s.tools.map((t): ComposedTool => ({ serverId: s.id, toolName: t.name, exposedAlias: t.name })),
  );
  const metadata = new Map(
    connected.flatMap((s) =>
      s.tools.map((t) => [toolMetadataKey(s.id, t.name), { description: t.description }] as const),
    ),
  );
  const perServer = connected.map((s) => ({
    id: s.id,
    enabled: true,
    members: members.filter((m) => m.serverId === s.id),
  }));
  const hits: ShadowingHit[] = [];
  for (const violation of [
    ...checkAliasCollisions(perServer),
    ...checkCrossServerReferences(members, metadata),
    ...checkSelfScopeViolations(members, metadata),
  ]) {
    if (violation.rule === 'R1_ALIAS_COLLISION') {
      for (const owner of violation.compositionIds.split(','))
        hits.push({ rule: violation.rule, upstream: owner, tool: violation.alias, detail: violation.detail });
    } else {
      hits.push({
        rule: violation.rule,
        upstream: violation.member.serverId,
        tool: violation.member.toolName,
        detail: violation.detail,
      });
    }
  }
  return hits;
}

/** The prompts, resources and instructions scan and the shadowing rules over `snapshots`. */
export function scanModelSurfaces(
  snapshots: readonly UpstreamSnapshot[],
  scanner: PoisoningScanner = createPoisoningScanner(),
): Pick<GovernedScan, 'surfaces' | 'shadowing'> {
  return {
    surfaces: snapshots.filter((s) => s.state === 'connected').flatMap((s) => scanSurfaces(scanner, s)),
    shadowing: scanShadowing(snapshots),
  };
}

/** Governs `snapshots` (ids matching `config.upstreams`) the way the gateway would, on a throwaway ledger. */
export function governSnapshots(
  config: PortcullisConfig,
  snapshots: readonly UpstreamSnapshot[],
  now = Date.now,
): GovernedScan {
  const store = openStore({ path: ':memory:' });
  try {
    const scanner = createPoisoningScanner();
    const governance = createGovernance({
      config,
      catalog: loadServerCatalog(),
      ledger: createLedger(store.ledger, now),
      createScanner: (otherNames) => createPoisoningScanner({ otherNames }),
      snapshots: () => snapshots,
      lastUsedAt: () => null,
      recordEvent: () => {},
      now,
      log: () => {},
    });
    const validator = createArgumentValidator();
    const registry = createToolRegistry({
      config,
      snapshots: () => snapshots,
      govern: governance.govern,
      inputSchemaProblem: (schema) => validator.schemaProblem(schema),
    });
    registry.rebuild();
    return { governance, tools: registry.all(), ...scanModelSurfaces(snapshots, scanner) };
  } finally {
    store.close();
  }
}
