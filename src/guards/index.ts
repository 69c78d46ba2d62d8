/** guards: the governance units that decide what the model may see — poisoning scan, fingerprint ledger, shadowing, risk cap, composition gate — and the review of upstream sampling requests. */
export { createGovernance, serverContextOf, transportKind } from './governance.ts';
export type { Governance, GovernanceDeps } from './governance.ts';
export { reviewSampling, samplingTexts } from './sampling-review.ts';
export type { SamplingHit, SamplingReview, SamplingReviewDeps } from './sampling-review.ts';
