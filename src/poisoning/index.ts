/** poisoning: the pure prompt-injection scanner over every model-visible string — normalization, rules, family detectors, a linear model, cross-server names — and its adversarial samples. */
export { EXTRA_PATTERN_IDS, NORMALIZATION_PATTERN_IDS, REFERENCE_PATTERN_IDS } from './poisoning-patterns.ts';
export { FAMILY_DETECTOR_IDS } from './detectors.ts';
export type { FamilyDetectorId } from './detectors.ts';
export { normalizeText } from './normalize.ts';
export type { HiddenKind, HiddenRun, NormalizedText } from './normalize.ts';
export type { PoisoningPatternId } from './poisoning-patterns.ts';
export {
  CROSS_SERVER_WINDOW,
  createPoisoningScanner,
  scanRules,
  scanText,
  scanTool,
} from './poisoning-scanner.ts';
export type {
  PoisoningScanner,
  PoisoningScannerOptions,
  TextMatch,
  TextScanResult,
  ToolMatch,
  ToolScanResult,
} from './poisoning-scanner.ts';
export { createAdversarialInputs } from './poisoning-samples.ts';
export type { ScanSample } from './poisoning-samples.ts';
export { findMixedScriptWords } from './homoglyph.ts';
export type { MixedScriptWord } from './homoglyph.ts';
export { collectVisibleStrings } from './tool-strings.ts';
export type { VisibleString } from './tool-strings.ts';
