/** poisoning: the pure prompt-injection scanner over every model-visible string — normalization, rules, family detectors, a linear model, cross-server names — and its adversarial samples. */

export { createPoisoningScanner } from './poisoning-scanner.ts';
export type { PoisoningScanner, TextScanResult, ToolMatch, ToolScanResult } from './poisoning-scanner.ts';
export { skeletonOf } from './skeleton.ts';
export { createAdversarialInputs } from './poisoning-samples.ts';

export { collectVisibleStrings } from './tool-strings.ts';
