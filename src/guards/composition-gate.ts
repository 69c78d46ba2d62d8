/**
 * The composition gate (docs/rules/risk-model.md): walks the compositions the tool list forms, asks the
 * composition-level guards (risk cap, then shadowing) about each, records the outcome (CompositionLifecycle),
 * and withholds every member of a refused composition. The cap and the shadowing rules so apply on every
 * exposure path, implicit compositions included.
 */
import type { ExposedTool, UpstreamExposedTool } from '../exposure/index.ts';
import { collectCompositions, toolMetadataOf, type CompositionSubject } from './compositions.ts';
import { ALLOW, type Guard, type GuardDecision } from './contract.ts';
import type { GuardFinding } from './contract.ts';
import type { GovernanceEmit } from './event-emitter.ts';
import { riskCapGuard } from './risk-cap-guard.ts';
import { runGuards, type GuardRunnerDeps } from './runner.ts';
import { createShadowingGuard } from './shadowing-guard.ts';
import type { CompositionConfig } from '../config/index.ts';

/** What the gate reads. */
export interface CompositionGateDeps extends GuardRunnerDeps {
  compositions: readonly CompositionConfig[];
  emit: GovernanceEmit;
}

function summarize(findings: readonly GuardFinding[]): string {
  const counts = new Map<string, number>();
  for (const finding of findings) counts.set(finding.code, (counts.get(finding.code) ?? 0) + 1);
  return [...counts].map(([code, count]) => `${code}: ${count}`).join(', ');
}

/** Creates the composition gate (exposure phase, tools). */
export function createCompositionGate(deps: CompositionGateDeps): Guard<ExposedTool> {
  return {
    id: 'composition',
    phase: 'exposure',
    subject: 'tool',
    decide(tools) {
      const compositions = collectCompositions(tools, deps.compositions);
      const guards: Guard<CompositionSubject>[] = [riskCapGuard, createShadowingGuard(toolMetadataOf(tools))];
      const verdicts = runGuards(guards, compositions, deps);
      const decisions = new Map<UpstreamExposedTool, GuardDecision>();
      compositions.forEach((composition, i) => {
        const verdict = verdicts[i] ?? { findings: [] };
        const { id, cap } = composition;
        const reasons = verdict.findings.map((f) => f.message);
        if (verdict.withheld === undefined) {
          // An advisory refusal leaves the composition enabled; the event still says what was found.
          const advisory = reasons.length === 0 ? {} : { advisory: reasons };
          deps.emit('CompositionLifecycle', id, {
            outcome: 'enabled',
            members: composition.members.length,
            cap,
            ...advisory,
          });
        } else {
          const summary = summarize(verdict.findings);
          deps.emit('CompositionLifecycle', id, { outcome: 'refused', summary, reasons, cap });
        }
        for (const tool of composition.tools) {
          if (verdict.withheld !== undefined) {
            tool.governance = { ...tool.governance, compositionRefusal: reasons };
            decisions.set(tool, {
              kind: 'withhold',
              reason: verdict.withheld.reason,
              ...(verdict.withheld.detail === undefined ? {} : { detail: verdict.withheld.detail }),
              findings: verdict.findings,
            });
          } else if (verdict.findings.length > 0) {
            decisions.set(tool, { kind: 'annotate', findings: verdict.findings });
          }
        }
      });
      return tools.map((tool) => (tool.origin === 'upstream' ? decisions.get(tool) : undefined) ?? ALLOW);
    },
  };
}
