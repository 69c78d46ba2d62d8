/**
 * Governed prompts, resources, resource templates and server instructions (docs/architecture.md, "Guards"):
 * every upstream's non-tool surface is fingerprinted into the ledger and scanned like its tools — with the live
 * names of the other servers' tools — and the fingerprint and poisoning guards decide on each item in their
 * configured modes, in that order. A withheld item leaves the governed snapshots (so it is absent from the lists
 * and unknown when asked for); every flagged item is reported, withheld or not, in `findings`, a poisoning hit
 * as a PoisoningHit event and a changed definition as a HashLedgerMismatch event.
 */
import type { Prompt, Resource, ResourceTemplateType } from '@modelcontextprotocol/client';
import type { GuardsConfig, PortcullisConfig } from '../config/index.ts';
import { defaultAlias, type GuardFinding } from '../exposure/index.ts';
import type { FingerprintableSurface, Ledger, LedgerStatus } from '../ledger/index.ts';
import type { ToolMatch, ToolScanResult } from '../poisoning/index.ts';
import type { McpToolDefinition } from '../risk/index.ts';
import type { UpstreamSnapshot } from '../upstream/index.ts';
import type { GuardSubject } from './contract.ts';
import type { GovernanceEmit } from './event-emitter.ts';
import { createFingerprintGuard } from './fingerprint-guard.ts';
import { upstreamOwner, type LiveScanner } from './live-scanner.ts';
import { createPoisoningGuard, type ScanOutcome } from './poisoning-guard.ts';
import { runGuards } from './runner.ts';
import { matchFacts } from './tool-facts.ts';

/** Which surface an item is on. */
export type SurfaceKind = 'prompt' | 'resource' | 'resource-template' | 'server-instructions';

/** One flagged prompt, resource, template or set of server instructions, and what became of it. */
export interface SurfaceFinding {
  kind: SurfaceKind;
  upstream: string;
  /** The item's own name (the upstream's, before namespacing); the upstream id for server instructions. */
  name: string;
  /** The resource's URI or the template's URI template. */
  uri?: string;
  /** True when a guard withheld it (`enforce`): not listed, unknown when asked for, instructions dropped. */
  withheld: boolean;
  /** The ledger's digest of the item's definition, and its status; null when the ledger check failed. */
  fingerprint: { hash: string; status: LedgerStatus } | null;
  matches: ToolMatch[];
  /** The scanner model's probability that the item is poisoned (absent for instructions: rules only). */
  score?: number;
  findings: GuardFinding[];
}

/** The snapshots with withheld items taken out, and what was flagged. */
export interface SurfaceReview {
  snapshots: UpstreamSnapshot[];
  /** URIs and URI templates of withheld resources and templates: a read of them answers unknown. */
  withheldUris: ReadonlySet<string>;
  findings: SurfaceFinding[];
}

/** What the review reads. */
export interface SurfaceReviewDeps {
  config: Pick<PortcullisConfig, 'upstreams'>;
  policies: GuardsConfig;
  ledger: Ledger;
  scanner: LiveScanner;
  emit: GovernanceEmit;
  log(event: string, fields: Record<string, unknown>, level: 'warn' | 'error'): void;
}

interface Item {
  kind: SurfaceKind;
  upstream: string;
  name: string;
  uri?: string;
  /** The scan, or why it failed (the guard rethrows it, so the runner applies `onError`). */
  scan: (ScanOutcome & { score?: number }) | Error;
  /** The ledger's record of the item, or why the check failed (rethrown like a failed scan). */
  fingerprint: { hash: string; status: LedgerStatus } | Error;
}

const NOTHING: ScanOutcome = { clean: true, matches: [] };

function attempt<T>(run: () => T): T | Error {
  try {
    return run();
  } catch (error) {
    return error instanceof Error ? error : new Error(String(error));
  }
}

const SUBJECT: Record<SurfaceKind, GuardSubject> = {
  prompt: 'prompt',
  resource: 'resource',
  'resource-template': 'resource',
  'server-instructions': 'server-instructions',
};

const labelOf = (item: Item) =>
  item.kind === 'server-instructions'
    ? `the server instructions of ${item.upstream}`
    : `${item.kind} ${item.upstream}::${item.uri ?? item.name}`;

const guards = Object.fromEntries(
  (Object.keys(SUBJECT) as SurfaceKind[]).map((kind) => [
    kind,
    [
      createFingerprintGuard<Item>(
        SUBJECT[kind],
        (item) => {
          if (item.fingerprint instanceof Error) throw item.fingerprint;
          return item.fingerprint.status;
        },
        labelOf,
      ),
      createPoisoningGuard<Item>(SUBJECT[kind], (item) => {
        if (item.scan instanceof Error) throw item.scan;
        return item.scan;
      }),
    ],
  ]),
) as Record<SurfaceKind, ReturnType<typeof createPoisoningGuard<Item>>[]>;

/** Checks the item's definition against the ledger; a changed one is a HashLedgerMismatch event. */
function fingerprinted(
  deps: SurfaceReviewDeps,
  upstream: string,
  surface: FingerprintableSurface,
): Item['fingerprint'] {
  return attempt(() => {
    const check = deps.ledger.checkSurface(upstream, surface);
    if (check.outcome === 'MISMATCH') {
      deps.emit('HashLedgerMismatch', `${surface.kind}:${upstream}::${check.record.tool}`, {
        upstream,
        kind: surface.kind,
        name: check.record.tool,
        previousHash: check.previousHash,
        currentHash: check.record.hash,
      });
    }
    return { hash: check.record.hash, status: check.record.status };
  });
}

/** Field paths read as the item's own fields: `arguments.<name>.description`, `uri`, `mimeType`. */
function renamed(scan: ToolScanResult, from: string, to: string): ScanOutcome & { score?: number } {
  const score = scan.score === undefined ? {} : { score: scan.score };
  if (!scan.matches.some((m) => m.fieldPath.startsWith(from)))
    return { clean: scan.clean, matches: scan.matches, ...score };
  const rename = (m: ToolMatch): ToolMatch =>
    m.fieldPath.startsWith(from) ? { ...m, fieldPath: to + m.fieldPath.slice(from.length) } : m;
  return { clean: scan.clean, matches: scan.matches.map(rename), ...score };
}

/** A prompt read as a tool: its arguments are its parameters. */
function promptDefinition(prompt: Prompt, description: string | undefined): McpToolDefinition {
  const properties = Object.fromEntries(
    (prompt.arguments ?? []).map((argument) => [
      argument.name,
      {
        type: 'string',
        ...(argument.description === undefined ? {} : { description: argument.description }),
      },
    ]),
  );
  return {
    name: prompt.name,
    ...(prompt.title === undefined ? {} : { title: prompt.title }),
    ...(description === undefined ? {} : { description }),
    inputSchema: { type: 'object', properties },
  };
}

/** A resource or template read as a tool whose extra strings (URI, MIME type) sit beside its description. */
function resourceDefinition(item: Resource | ResourceTemplateType, uri: string): McpToolDefinition {
  return {
    name: item.name,
    ...(item.title === undefined ? {} : { title: item.title }),
    ...(item.description === undefined ? {} : { description: item.description }),
    inputSchema: { type: 'object' },
    annotations: { uri, ...(item.mimeType === undefined ? {} : { mimeType: item.mimeType }) },
  };
}

/** Every reviewable item of one connected upstream, scanned. */
function itemsOf(snapshot: UpstreamSnapshot, deps: SurfaceReviewDeps): Item[] {
  const owner = upstreamOwner(snapshot.id);
  const upstream = snapshot.id;
  const overrides = deps.config.upstreams.find((u) => u.id === upstream)?.promptOverrides ?? {};
  const items: Item[] = [];
  for (const prompt of snapshot.prompts) {
    // What the model reads: an operator's description override replaces the upstream's.
    const override = Object.hasOwn(overrides, prompt.name) ? overrides[prompt.name] : undefined;
    const definition = promptDefinition(prompt, override?.description ?? prompt.description);
    const exposedAs = override?.alias ?? defaultAlias(upstream, prompt.name);
    const scan = attempt(() =>
      renamed(
        deps.scanner.scanDefinition(owner, definition, exposedAs),
        'inputSchema.properties.',
        'arguments.',
      ),
    );
    // The ledger keeps what the upstream sent: an override is the operator's, not a change upstream.
    const fingerprint = fingerprinted(deps, upstream, { kind: 'prompt', item: prompt });
    items.push({ kind: 'prompt', upstream, name: prompt.name, scan, fingerprint });
  }
  const resources: [SurfaceKind, Resource | ResourceTemplateType, string][] = [
    ...snapshot.resources.map((r): [SurfaceKind, Resource, string] => ['resource', r, r.uri]),
    ...snapshot.resourceTemplates.map((t): [SurfaceKind, ResourceTemplateType, string] => [
      'resource-template',
      t,
      t.uriTemplate,
    ]),
  ];
  for (const [kind, resource, uri] of resources) {
    const definition = resourceDefinition(resource, uri);
    const scan = attempt(() =>
      renamed(
        deps.scanner.scanDefinition(owner, definition, defaultAlias(upstream, resource.name)),
        'annotations.',
        '',
      ),
    );
    const fingerprint = fingerprinted(deps, upstream, { kind, item: resource } as FingerprintableSurface);
    items.push({ kind, upstream, name: resource.name, uri, scan, fingerprint });
  }
  if (snapshot.instructions !== undefined && snapshot.instructions !== '') {
    const text = snapshot.instructions;
    const scan = attempt(() => {
      const { clean, matches } = deps.scanner.scanText(owner, text);
      return { clean, matches: matches.map((m): ToolMatch => ({ ...m, fieldPath: 'instructions' })) };
    });
    const fingerprint = fingerprinted(deps, upstream, { kind: 'server-instructions', instructions: text });
    items.push({ kind: 'server-instructions', upstream, name: upstream, scan, fingerprint });
  }
  return items;
}

const subjectOf = (item: Item) =>
  item.kind === 'server-instructions'
    ? `server-instructions:${item.upstream}`
    : `${item.kind}:${item.upstream}::${item.uri ?? item.name}`;

/** Reviews the non-tool surface of the given snapshots (only connected ones list anything). */
export function reviewSurfaces(
  snapshots: readonly UpstreamSnapshot[],
  deps: SurfaceReviewDeps,
): SurfaceReview {
  const governed: UpstreamSnapshot[] = [];
  const withheldUris = new Set<string>();
  const findings: SurfaceFinding[] = [];
  for (const snapshot of snapshots) {
    if (snapshot.state !== 'connected') {
      governed.push(snapshot);
      continue;
    }
    const items = itemsOf(snapshot, deps);
    const withheld = new Set<Item>();
    for (const kind of Object.keys(SUBJECT) as SurfaceKind[]) {
      const ofKind = items.filter((item) => item.kind === kind);
      if (ofKind.length === 0) continue;
      const verdicts = runGuards(guards[kind], ofKind, { policies: deps.policies, log: deps.log });
      ofKind.forEach((item, i) => {
        const verdict = verdicts[i];
        const scan: ScanOutcome & { score?: number } = item.scan instanceof Error ? NOTHING : item.scan;
        if (verdict?.withheld !== undefined) withheld.add(item);
        if (scan.clean && verdict?.withheld === undefined && (verdict?.findings.length ?? 0) === 0) return;
        const finding: SurfaceFinding = {
          kind,
          upstream: item.upstream,
          name: item.name,
          ...(item.uri === undefined ? {} : { uri: item.uri }),
          withheld: verdict?.withheld !== undefined,
          fingerprint: item.fingerprint instanceof Error ? null : item.fingerprint,
          matches: [...scan.matches],
          ...(scan.score === undefined ? {} : { score: scan.score }),
          findings: verdict?.findings ?? [],
        };
        findings.push(finding);
        if (scan.clean) return;
        deps.emit('PoisoningHit', subjectOf(item), {
          upstream: item.upstream,
          surface: kind,
          name: item.name,
          ...(item.uri === undefined ? {} : { uri: item.uri }),
          withheld: finding.withheld,
          matches: scan.matches.map(matchFacts),
        });
      });
    }
    governed.push(withoutWithheld(snapshot, withheld, withheldUris));
  }
  return { snapshots: governed, withheldUris, findings };
}

/** The snapshot without the withheld items; their URIs go into `withheldUris`. */
function withoutWithheld(
  snapshot: UpstreamSnapshot,
  withheld: ReadonlySet<Item>,
  withheldUris: Set<string>,
): UpstreamSnapshot {
  if (withheld.size === 0) return snapshot;
  const keys = new Set<string>();
  for (const item of withheld) {
    keys.add(`${item.kind}\u0000${item.uri ?? item.name}`);
    if (item.uri !== undefined) withheldUris.add(item.uri);
  }
  const gone = (kind: SurfaceKind, key: string) => keys.has(`${kind}\u0000${key}`);
  const { instructions, ...rest } = snapshot;
  return {
    ...rest,
    ...(instructions === undefined || gone('server-instructions', snapshot.id) ? {} : { instructions }),
    prompts: snapshot.prompts.filter((p) => !gone('prompt', p.name)),
    resources: snapshot.resources.filter((r) => !gone('resource', r.uri)),
    resourceTemplates: snapshot.resourceTemplates.filter((t) => !gone('resource-template', t.uriTemplate)),
  };
}
