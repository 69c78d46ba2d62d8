/**
 * Runs guards in order over one set of subjects and folds their decisions into one verdict per subject,
 * applying each guard's configured mode: `enforce` keeps a withhold, `advisory` turns it into findings, `off`
 * skips the guard. The first withhold wins; findings accumulate. A guard that throws withholds every subject
 * (onError closed) or lets them through with a log line (onError open).
 */
import type { GuardId, GuardsConfig } from '../config/index.ts';
import type { GuardFinding, WithheldReason } from '../exposure/index.ts';
import type { Guard, GuardDecision } from './contract.ts';

/** Where one subject stands after every guard ran. */
export interface GuardVerdict {
  /** The first enforced withholding, with the guard that decided it. */
  withheld?: { guard: GuardId; reason: WithheldReason; detail?: string };
  findings: GuardFinding[];
}

/** What the runner needs besides the guards. */
export interface GuardRunnerDeps {
  policies: GuardsConfig;
  log(event: string, fields: Record<string, unknown>, level: 'warn' | 'error'): void;
}

const errorMessage = (error: unknown) => (error instanceof Error ? error.message : String(error));

function failedDecisions(guard: Guard<unknown>, count: number, error: unknown): GuardDecision[] {
  const finding: GuardFinding = { guard: guard.id, code: 'guard-failed', message: errorMessage(error) };
  return Array.from({ length: count }, () => ({
    kind: 'withhold' as const,
    reason: 'guard-failed' as const,
    detail: `${guard.id}: ${finding.message}`,
    findings: [finding],
  }));
}

/** Runs the guards in order; the verdicts are aligned with `subjects`. */
export function runGuards<S>(
  guards: readonly Guard<S>[],
  subjects: readonly S[],
  deps: GuardRunnerDeps,
): GuardVerdict[] {
  const verdicts: GuardVerdict[] = subjects.map(() => ({ findings: [] }));
  const index = new Map(subjects.map((subject, i) => [subject, i]));
  const isWithheld = (subject: S) => verdicts[index.get(subject) ?? -1]?.withheld !== undefined;
  for (const guard of guards) {
    const policy = deps.policies[guard.id];
    if (policy.mode === 'off') continue;
    let decisions: readonly GuardDecision[];
    try {
      decisions = guard.decide(subjects, isWithheld);
      if (decisions.length !== subjects.length)
        throw new Error(`${decisions.length} decisions for ${subjects.length} subjects`);
    } catch (error) {
      const open = policy.onError === 'open';
      deps.log(
        'guard.failed',
        { guard: guard.id, error: errorMessage(error), onError: policy.onError },
        open ? 'warn' : 'error',
      );
      if (open) continue;
      decisions = failedDecisions(guard as Guard<unknown>, subjects.length, error);
    }
    decisions.forEach((decision, i) => {
      const verdict = verdicts[i] as GuardVerdict;
      if (decision.kind === 'allow') return;
      verdict.findings.push(...decision.findings);
      if (decision.kind !== 'withhold' || verdict.withheld !== undefined) return;
      // A failed guard withholds in every mode: it could not say the subject is safe.
      if (policy.mode === 'enforce' || decision.reason === 'guard-failed') {
        verdict.withheld = {
          guard: guard.id,
          reason: decision.reason,
          ...(decision.detail === undefined ? {} : { detail: decision.detail }),
        };
      }
    });
  }
  return verdicts;
}
