/**
 * The scanner as the live gateway runs it: each owner (one upstream, or the local tools together) is scanned
 * with the names of every *other* owner's tools, so the cross-server check sees the real registry; a
 * description that orders the model to another server's tool is a finding here even where the scanner keeps
 * it as a signal. Results are cached by definition and name set, so a rebuild rescans only what changed.
 */
import { createHash } from 'node:crypto';
import type { ExposedTool } from '../exposure/index.ts';
import {
  skeletonOf,
  type PoisoningScanner,
  type TextScanResult,
  type ToolMatch,
  type ToolScanResult,
} from '../poisoning/index.ts';
import type { McpToolDefinition } from '../risk/index.ts';

/** Compiles a scanner that looks for the given names of other tools. */
export type ScannerFactory = (otherNames: readonly string[]) => PoisoningScanner;

/** The owner of the local tools (Safe Tool Specs), which all share one. */
export const LOCAL_OWNER = 'local:';

/** Who serves a tool: its upstream, or the local tools. */
export function ownerOf(tool: ExposedTool): string {
  return tool.origin === 'local' ? LOCAL_OWNER : upstreamOwner(tool.upstream);
}

/** The owner key of an upstream. */
export const upstreamOwner = (upstream: string): string => `upstream:${upstream}`;

// A plain word (`search`, `fetch`, `run`) is too common to mean "that tool" in prose; an identifier with a
// separator or an inner capital (`create_page`, `listTables`) is not.
const DISTINCTIVE = /[_.:/-]|[a-z][A-Z]/;
const MIN_NAME_LENGTH = 4;

/** Whether a tool name, met in prose, can only mean that tool. */
export function isDistinctiveName(name: string): boolean {
  return name.length >= MIN_NAME_LENGTH && DISTINCTIVE.test(name);
}

/** The names a description could use for a tool: its own name and the alias clients see. */
function namesOf(tool: ExposedTool): string[] {
  const own = tool.origin === 'local' ? tool.source.name : tool.upstreamTool;
  return [own, tool.alias].filter(isDistinctiveName);
}

const CROSS_SERVER = 'CROSS_SERVER_IMPERATIVE';

/** Makes a cross-server order a finding: the live check names a tool another server really serves. */
function flagCrossServer<R extends ToolScanResult | TextScanResult>(result: R): R {
  const signals = result.signals ?? [];
  if (!signals.some((signal) => signal.patternId === CROSS_SERVER)) return result;
  return {
    ...result,
    clean: false,
    matches: [...result.matches, ...signals.filter((s) => s.patternId === CROSS_SERVER)],
    signals: signals.filter((s) => s.patternId !== CROSS_SERVER),
  };
}

// What a finding on a name says besides its pattern: the name as the server sent it, what a reader takes it for,
// and the name clients see (sanitizing replaces what it cannot keep, so only the scan of the original sees it).
const NAME_PATTERNS = new Set(['UNICODE_HOMOGLYPH_RISK', 'INVISIBLE_CHARACTER', 'UNICODE_ZERO_WIDTH']);

function describeName(result: ToolScanResult, original: string, exposedAs: string): ToolScanResult {
  if (!result.matches.some((m) => m.fieldPath === 'name' && NAME_PATTERNS.has(m.patternId))) return result;
  const about = `original ${JSON.stringify(original)}, skeleton ${JSON.stringify(skeletonOf(original))}, exposed as ${JSON.stringify(exposedAs)}`;
  const matches = result.matches.map((match): ToolMatch => {
    if (match.fieldPath !== 'name' || !NAME_PATTERNS.has(match.patternId)) return match;
    return { ...match, detail: match.detail === undefined ? about : `${match.detail}; ${about}` };
  });
  return { ...result, matches };
}

// The cache key of a definition or text: a digest, so a megabyte description is not kept twice as a key.
const digest = (text: string) => createHash('sha256').update(text).digest('base64');

/** The scans of the live gateway. */
export interface LiveScanner {
  /** Takes the registry's tools as the names to look for (once per rebuild, before its scans). */
  setTools(tools: readonly ExposedTool[]): void;
  /**
   * Scans a definition of `owner` under its original `name`; a finding on that name tells the original, its
   * skeleton and `exposedAs`. `previous` is the definition approved before this one, when it changed: what
   * this one adds is scored as well (docs/rules/poisoning.md, R-POISON-REDEFINITION).
   */
  scanDefinition(
    owner: string,
    definition: McpToolDefinition,
    exposedAs: string,
    previous?: McpToolDefinition,
  ): ToolScanResult;
  /** Scans one text of `owner` (server instructions): rules and detectors, not the model. */
  scanText(owner: string, text: string): TextScanResult;
}

/** Creates the live scanner over a scanner factory. */
export function createLiveScanner(createScanner: ScannerFactory): LiveScanner {
  const owned = new Map<string, string[]>();
  // Compiled scanners by name set, and which one each owner uses in this rebuild.
  let compiled = new Map<string, { id: number; scanner: PoisoningScanner }>();
  let byOwner = new Map<string, { id: number; scanner: PoisoningScanner }>();
  let nextId = 0;
  // Two generations: what the current rebuild used, and what the one before did. A rebuild keeps what it
  // asks for again and lets the rest go, so the cache holds at most two registries' worth.
  let current = new Map<string, ToolScanResult | TextScanResult>();
  let previous = new Map<string, ToolScanResult | TextScanResult>();
  let kept = new Map<string, { id: number; scanner: PoisoningScanner }>();

  // Every owner's names, sorted and distinct, and a number that changes only when they do. An owner's scanner
  // looks for these minus its own: a name the owner serves itself means its own tool (two upstreams of one server
  // both list `read_file`). So that set is fixed by the two, and its key is the number and the owner's own names
  // (not the few thousand others, sorted again for every owner).
  let allNames: string[] = [];
  let allNamesText = '';
  let allNamesVersion = 0;

  const scannerFor = (owner: string) => {
    const known = byOwner.get(owner);
    if (known !== undefined) return known;
    const own = new Set(owned.get(owner));
    const key = `${allNamesVersion}\u0000${[...own].sort().join('\n')}`;
    // A scanner whose name set did not change is kept, with its id (and so its cached results).
    let entry = compiled.get(key) ?? kept.get(key);
    if (entry === undefined)
      entry = { id: (nextId += 1), scanner: createScanner(allNames.filter((name) => !own.has(name))) };
    compiled.set(key, entry);
    byOwner.set(owner, entry);
    return entry;
  };

  function cached<R extends ToolScanResult | TextScanResult>(key: string, scan: () => R): R {
    const hit = current.get(key) ?? previous.get(key);
    if (hit !== undefined) {
      current.set(key, hit);
      return hit as R;
    }
    const result = scan();
    current.set(key, result);
    return result;
  }

  return {
    setTools(tools) {
      owned.clear();
      for (const tool of tools) {
        const owner = ownerOf(tool);
        const list = owned.get(owner) ?? [];
        list.push(...namesOf(tool));
        owned.set(owner, list);
      }
      allNames = [...new Set([...owned.values()].flat())].sort();
      const text = allNames.join('\n');
      if (text !== allNamesText) {
        allNamesText = text;
        allNamesVersion += 1;
      }
      kept = compiled;
      compiled = new Map();
      byOwner = new Map();
      previous = current;
      current = new Map();
    },
    scanDefinition(owner, definition, exposedAs, previous) {
      const { id, scanner } = scannerFor(owner);
      const before = previous === undefined ? '' : `\u0000${JSON.stringify(previous)}`;
      return cached(`${id}:tool:${digest(`${exposedAs}\u0000${JSON.stringify(definition)}${before}`)}`, () =>
        describeName(flagCrossServer(scanner.scanTool(definition, { previous })), definition.name, exposedAs),
      );
    },
    scanText(owner, text) {
      const { id, scanner } = scannerFor(owner);
      return cached(`${id}:text:${digest(text)}`, () => flagCrossServer(scanner.scanText(text)));
    },
  };
}
