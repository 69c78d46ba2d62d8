/**
 * The one contract every governance guard implements (docs/architecture.md, "How to add a guard"): a phase,
 * a subject, a mode set in config, and a typed decision. A guard says what it would do under `enforce`; the
 * runner applies the configured mode, so a guard never reads its own mode.
 */
import type { GuardId, GuardMode, GuardPolicy } from '../config/index.ts';
import type { GuardFinding, WithheldReason } from '../exposure/index.ts';

export type { GuardFinding, GuardId, GuardMode, GuardPolicy };

/** When a guard decides: while the exposed lists are built, or on each call. */
export type GuardPhase = 'exposure' | 'call';

/** What a guard decides about: a definition at exposure, or (`result`) what an upstream or local tool answered. */
export type GuardSubject = 'tool' | 'prompt' | 'resource' | 'server-instructions' | 'result';

/** What a guard concluded about one subject. */
export type GuardDecision =
  | { readonly kind: 'allow' }
  | {
      readonly kind: 'withhold';
      readonly reason: WithheldReason;
      readonly detail?: string;
      readonly findings: readonly GuardFinding[];
    }
  | { readonly kind: 'annotate'; readonly findings: readonly GuardFinding[] };

/** The decision that lets a subject through with nothing to say. */
export const ALLOW: GuardDecision = Object.freeze({ kind: 'allow' });

/** One governance unit over subjects of type S. */
export interface Guard<S> {
  readonly id: GuardId;
  readonly phase: GuardPhase;
  readonly subject: GuardSubject;
  /**
   * One decision per subject, in the order given. `isWithheld` tells which subjects an earlier guard already
   * withheld (a guard that keeps a running set, like shadowing, must not count them).
   */
  decide(subjects: readonly S[], isWithheld: (subject: S) => boolean): readonly GuardDecision[];
}
