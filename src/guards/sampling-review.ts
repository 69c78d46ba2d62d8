/**
 * What the gateway checks before it relays an upstream's sampling/createMessage to a client: the request's
 * texts go straight to the client's model, so they are scanned for prompt injection like tool definitions
 * (a hit is refused under `poisoning: block`, logged under `warn`), and known secrets are masked.
 */
import type { TextScanResult } from '../poisoning/index.ts';
import type { UpstreamSampling } from '../upstream/index.ts';

/** One injection hit in a sampling request: where it was and which pattern matched. */
export interface SamplingHit {
  /** `systemPrompt` or `messages/<i>/content[/<j>]`. */
  field: string;
  patternId: string;
}

/** The verdict on one sampling request. */
export type SamplingReview =
  | { relay: true; params: UpstreamSampling; hits: SamplingHit[] }
  | { relay: false; reason: string; hits: SamplingHit[] };

/** What the review needs from the gateway. */
export interface SamplingReviewDeps {
  scan(text: string): TextScanResult;
  poisoning: 'warn' | 'block';
  maskDeep<T>(value: T): T;
}

/** Every text the client's model will read, with where it sits in the request. */
export function samplingTexts(params: UpstreamSampling): { field: string; text: string }[] {
  const texts: { field: string; text: string }[] = [];
  if (typeof params.systemPrompt === 'string')
    texts.push({ field: 'systemPrompt', text: params.systemPrompt });
  params.messages.forEach((message, i) => {
    const blocks = Array.isArray(message.content) ? message.content : [message.content];
    blocks.forEach((block, j) => {
      const field = Array.isArray(message.content) ? `messages/${i}/content/${j}` : `messages/${i}/content`;
      if (block.type === 'text') texts.push({ field, text: block.text });
    });
  });
  return texts;
}

/** Decides whether a sampling request may go to the client, and masks it when it may. */
export function reviewSampling(params: UpstreamSampling, deps: SamplingReviewDeps): SamplingReview {
  if (params.tools !== undefined || params.toolChoice !== undefined) {
    // The upstream link does not declare sampling.tools; a request that still asks for tool use is refused.
    return { relay: false, reason: 'it asks for tool use, which Portcullis does not relay', hits: [] };
  }
  const hits = samplingTexts(params).flatMap(({ field, text }) =>
    deps.scan(text).matches.map((match) => ({ field, patternId: match.patternId })),
  );
  if (hits.length > 0 && deps.poisoning === 'block') {
    const where = hits.map((hit) => `${hit.patternId} in ${hit.field}`).join(', ');
    return { relay: false, reason: `it looks like prompt injection (${where})`, hits };
  }
  return { relay: true, params: deps.maskDeep(params), hits };
}
