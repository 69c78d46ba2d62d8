/** The sixth author batch (batch4): its poisoned and honest tables gathered, so assemble.ts names it in one line. */
import { HONEST_BATCH4_HARD } from './honest-batch4-hard.ts';
import { HONEST_BATCH4_PERSONA } from './honest-batch4-persona.ts';
import { HONEST_BATCH4_RULES } from './honest-batch4-rules.ts';
import { HONEST_BATCH4_FIRST_VERSIONS, HONEST_BATCH4_UPDATES } from './honest-batch4-updates.ts';
import { POISONED_BATCH4_ORDERS } from './poisoned-batch4-orders.ts';
import { POISONED_BATCH4_PERSONA } from './poisoned-batch4-persona.ts';
import { POISONED_BATCH4_REACH } from './poisoned-batch4-reach.ts';
import { POISONED_BATCH4_UPDATES } from './poisoned-batch4-updates.ts';
import type { HonestSpec, PoisonedSpec } from './types.ts';

/** Every poisoned entry of batch4. */
export const BATCH4_POISONED: readonly PoisonedSpec[] = [
  ...POISONED_BATCH4_UPDATES,
  ...POISONED_BATCH4_PERSONA,
  ...POISONED_BATCH4_ORDERS,
  ...POISONED_BATCH4_REACH,
];

/** Every honest entry of batch4 (honest tools, honest updates, and the first versions of its rug pulls). */
export const BATCH4_HONEST: readonly HonestSpec[] = [
  ...HONEST_BATCH4_UPDATES,
  ...HONEST_BATCH4_PERSONA,
  ...HONEST_BATCH4_HARD,
  ...HONEST_BATCH4_RULES,
  ...HONEST_BATCH4_FIRST_VERSIONS,
];
