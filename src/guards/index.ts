/** guards: the governance units that decide what the model may see — fingerprint ledger, poisoning scan, risk cap, shadowing, composition gate — on one contract, the call-time response scan, and the review of upstream sampling requests. */
export { createGovernance } from './governance.ts';
export type { Governance } from './governance.ts';
export { serverContextOf } from './server-assessment.ts';

export { reviewSampling } from './sampling-review.ts';
export type { SamplingReview, SamplingReviewDeps } from './sampling-review.ts';

export { reviewResponse } from './response-scan-guard.ts';
export type { ResponseReview, ResponseScanDeps } from './response-scan-guard.ts';
export type { ResponseKind } from './response-texts.ts';
