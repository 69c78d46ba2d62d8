/** poisoning: the pure prompt-injection scanner over every model-visible string — patterns, homoglyphs, cross-server names — and its adversarial samples. */
export { EXTRA_PATTERN_IDS, REFERENCE_PATTERN_IDS } from './poisoning-patterns.ts';
export type { PoisoningPatternId } from './poisoning-patterns.ts';
export { CROSS_SERVER_WINDOW, createPoisoningScanner, scanText, scanTool } from './poisoning-scanner.ts';
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
