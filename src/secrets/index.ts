/** secrets: the ${ENV} placeholder grammar and the masker every egress uses; a leaf that imports no other domain. */
export { createMasker, MIN_SECRET_LENGTH } from './masking.ts';
export type { Masker } from './masking.ts';
export {
  PLACEHOLDER_PATTERN,
  findPlaceholders,
  anchoredPlaceholder,
  isMissingValue,
  substitutePlaceholders,
} from './placeholders.ts';
export type { EnvLookup } from './placeholders.ts';
