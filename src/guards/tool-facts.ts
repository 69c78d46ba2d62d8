/**
 * The facts every guard decides on, gathered once per tool and rebuild: the poisoning scan, the tool's risk
 * through the one evaluation path (docs/rules/risk-model.md), and for upstream tools the fingerprint ledger's
 * check (docs/rules/ledger.md). They are attached to `tool.governance` and recorded whatever the guards' modes:
 * the risk model reads the scan (a hit forfeits the HITL credit) even when the poisoning guard is off.
 */
import type { LocalExposedTool, UpstreamExposedTool } from '../exposure/index.ts';
import { reviewLedgerRecord, type Ledger } from '../ledger/index.ts';
import type { ToolMatch } from '../poisoning/index.ts';
import { evaluateLocalToolRisk, evaluateToolRisk, findToolDescriptor } from '../risk/index.ts';
import type { McpToolDefinition } from '../risk/index.ts';
import type { GovernanceEmit } from './event-emitter.ts';
import { LOCAL_OWNER, upstreamOwner, type LiveScanner } from './live-scanner.ts';
import type { AssessedServer } from './server-assessment.ts';

/** What gathering facts reads. */
export interface ToolFactsDeps {
  ledger: Ledger;
  scanner: LiveScanner;
  emit: GovernanceEmit;
}

/** A match as the PoisoningHit event carries it (a name's original form and skeleton ride in `detail`). */
export interface MatchFacts {
  patternId: string;
  fieldPath: string;
  offset: number;
  detail?: string;
}

/** The event facts of one match. */
export function matchFacts(match: ToolMatch): MatchFacts {
  return {
    patternId: match.patternId,
    fieldPath: match.fieldPath,
    offset: match.offset,
    ...(match.detail === undefined ? {} : { detail: match.detail }),
  };
}

/** Scans, scores and fingerprints an upstream tool; emits the ledger, risk and poisoning events. */
export function gatherUpstreamFacts(
  deps: ToolFactsDeps,
  tool: UpstreamExposedTool,
  server: AssessedServer,
): void {
  const { upstream, upstreamTool } = tool;
  // Name-based floors look at the upstream's own name (an alias prefix would hide `delete_`), and so does the
  // scan (sanitizing into an alias would hide a look-alike letter or an invisible character); everything else
  // looks at what the model sees.
  const visible = { ...tool.definition, name: upstreamTool };
  const check = deps.ledger.checkTool(upstream, tool.source);
  const previous = approvedBefore(check.record);
  const scan = deps.scanner.scanDefinition(upstreamOwner(upstream), visible, tool.alias, previous);
  const risk = evaluateToolRisk({
    server: server.assessment,
    tool: visible,
    descriptor: findToolDescriptor(server.entry, upstreamTool),
    hitl: earnsHitlCredit(tool),
    scan,
  });
  if (check.outcome === 'MISMATCH') {
    deps.emit('HashLedgerMismatch', `${upstream}::${upstreamTool}`, {
      upstream,
      tool: upstreamTool,
      previousHash: check.previousHash,
      currentHash: check.record.hash,
    });
  }
  tool.governance = {
    risk,
    poisoning: { clean: scan.clean, matches: [...scan.matches] },
    fingerprint: { hash: check.record.hash, profile: check.record.profile, status: check.record.status },
  };
  const subject = tool.alias;
  deps.emit('ToolPublishRiskComputed', subject, {
    upstream,
    tool: upstreamTool,
    publish: risk.publish.level,
    final: risk.final,
    effective: risk.effective,
  });
  if (risk.floorTrigger)
    deps.emit('FloorOverrideTriggered', subject, { floorTrigger: risk.floorTrigger, final: risk.final });
  if (!scan.clean) {
    deps.emit('PoisoningHit', subject, {
      upstream,
      tool: upstreamTool,
      matches: scan.matches.map(matchFacts),
    });
  }
}

/**
 * The definition the operator approved before the current one, when the ledger kept it and the tool changed
 * since: the scanner scores what the redefinition adds (docs/rules/poisoning.md, R-POISON-REDEFINITION).
 */
function approvedBefore(record: Parameters<typeof reviewLedgerRecord>[0]): McpToolDefinition | undefined {
  if (record.approvedHash === record.hash) return undefined;
  const { changed, approved } = reviewLedgerRecord(record);
  // The stored canonical JSON holds the six model-visible fields, an absent one as null, which a scan skips.
  return changed && approved.stored ? (approved.definition as unknown as McpToolDefinition) : undefined;
}

/** Scans and scores a local tool from its sandbox level; emits the poisoning event. */
export function gatherLocalFacts(
  deps: Pick<ToolFactsDeps, 'scanner' | 'emit'>,
  tool: LocalExposedTool,
): void {
  const scan = deps.scanner.scanDefinition(
    LOCAL_OWNER,
    { ...tool.definition, name: tool.source.name },
    tool.alias,
  );
  const sandboxLevel = tool.governance?.sandboxRisk?.level ?? null;
  const risk = evaluateLocalToolRisk({ sandboxLevel, hitl: earnsHitlCredit(tool), scan });
  tool.governance = {
    ...tool.governance,
    risk: { ...risk, floorTrigger: null },
    poisoning: { clean: scan.clean, matches: [...scan.matches] },
  };
  if (!scan.clean)
    deps.emit('PoisoningHit', tool.alias, { local: tool.localToolId, matches: scan.matches.length });
}

/**
 * Whether a tool earns the HITL risk credit (docs/rules/risk-model.md#r-comp-2-human-in-the-loop-credit): only when
 * a person approves every call. AUTO_APPROVE runs unasked below its threshold, so crediting it would lift a tool
 * at the threshold out of the approval it needs.
 */
function earnsHitlCredit(tool: UpstreamExposedTool | LocalExposedTool): boolean {
  return tool.hitl === 'REQUIRED';
}
