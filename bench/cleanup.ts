/** A stack of cleanup steps: last registered, first run; each step runs once and a failing step does not stop the rest. */

/** A cleanup step (stop a child, close a client, remove a temp dir). */
export type CleanupStep = () => Promise<unknown> | void;

/** The stack a section registers its cleanups on as it starts things. */
export interface CleanupStack {
  push(step: CleanupStep): void;
  /** How many steps are registered (a mark for a later partial unwind). */
  depth(): number;
  /** Runs (newest first) and drops every step above `mark` (all of them by default). */
  unwind(mark?: number): Promise<void>;
}

/** Creates an empty cleanup stack. */
export function createCleanupStack(): CleanupStack {
  const steps: CleanupStep[] = [];
  return {
    push: (step) => {
      steps.push(step);
    },
    depth: () => steps.length,
    async unwind(mark = 0) {
      for (const step of steps.splice(mark).reverse()) {
        try {
          await step();
        } catch {
          // Cleanup is best effort: the next step still runs.
        }
      }
    },
  };
}
