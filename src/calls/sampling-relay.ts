/**
 * The review of an upstream's sampling request during a call, with its log line: refused (warn), relayed with
 * injection hits (warn), or relayed clean (info). The verdict itself is the guards' (guards/sampling-review.ts).
 */
import { reviewSampling, type SamplingReview, type SamplingReviewDeps } from '../guards/index.ts';
import type { Logger } from '../telemetry/index.ts';
import type { UpstreamSampling } from '../upstream/index.ts';

/** Reviews and logs one sampling request an upstream sent while serving `alias`. */
export type SamplingReviewer = (alias: string, params: UpstreamSampling) => SamplingReview;

/** Creates the reviewer. */
export function createSamplingReviewer(
  deps: SamplingReviewDeps & { logger: Pick<Logger, 'log'> },
): SamplingReviewer {
  return (alias, params) => {
    const review = reviewSampling(params, deps);
    const hits = review.hits.map((hit) => `${hit.patternId} in ${hit.field}`);
    if (!review.relay) deps.logger.log('sampling.refused', { alias, reason: review.reason }, 'warn');
    else if (hits.length > 0) deps.logger.log('sampling.relayed', { alias, poisoningHits: hits }, 'warn');
    else deps.logger.log('sampling.relayed', { alias });
    return review;
  };
}
