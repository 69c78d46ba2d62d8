/**
 * Upstream-initiated questions (elicitation, sampling) on their way to the client, the same in both eras: a
 * sampling request is reviewed first, an elicitation is marked as the upstream's, and how each ended is noted
 * for the call's audit record. Only how the question reaches the client differs by era.
 */
import {
  ProtocolError,
  ProtocolErrorCode,
  type CreateMessageResult,
  type CreateMessageResultWithTools,
  type ElicitResult,
} from '@modelcontextprotocol/server';
import type { AuditUpstreamRequest } from '../audit/index.ts';
import type { UpstreamElicitation, UpstreamSampling } from '../upstream/index.ts';
import type { GatewayCore } from './gateway-core.ts';

/**
 * Reviews an upstream sampling request, then hands it to `send`; a refused one never reaches the client. How it
 * ended is noted in `asked` for the call's audit record.
 */
export async function relaySampling(
  core: Pick<GatewayCore, 'reviewSampling'>,
  alias: string,
  params: UpstreamSampling,
  send: (reviewed: UpstreamSampling) => Promise<CreateMessageResult | CreateMessageResultWithTools>,
  asked: AuditUpstreamRequest[],
): Promise<CreateMessageResult | CreateMessageResultWithTools> {
  const review = core.reviewSampling(alias, params);
  if (!review.relay) {
    asked.push({ kind: 'sampling', outcome: 'refused' });
    throw new ProtocolError(
      ProtocolErrorCode.InvalidRequest,
      `Portcullis refused this sampling request: ${review.reason}`,
    );
  }
  return noted(
    asked,
    'sampling',
    () => send(review.params),
    () => 'answered',
  );
}

/**
 * An upstream's question as the person sees it: marked as the upstream's, so that it can never pass for a
 * Portcullis approval prompt (docs/security.md, "Call guards").
 */
export function markAsUpstreams(
  params: UpstreamElicitation,
  upstream: string | undefined,
): UpstreamElicitation {
  const who = upstream === undefined ? 'The tool' : `Upstream server "${upstream}"`;
  return { ...params, message: `${who} asks (this is not a Portcullis approval): ${params.message}` };
}

/** Relays an upstream elicitation through `ask`, noting the client's action (or `failed`) in `asked`. */
export function relayElicitation(
  ask: () => Promise<ElicitResult>,
  asked: AuditUpstreamRequest[],
): Promise<ElicitResult> {
  return noted(asked, 'elicitation', ask, (answer) => answer.action);
}

/** Runs one upstream request to the client and notes how it ended (`failed` when it threw). */
async function noted<T>(
  asked: AuditUpstreamRequest[],
  kind: AuditUpstreamRequest['kind'],
  run: () => Promise<T>,
  outcomeOf: (answer: T) => AuditUpstreamRequest['outcome'],
): Promise<T> {
  try {
    const answer = await run();
    asked.push({ kind, outcome: outcomeOf(answer) });
    return answer;
  } catch (error) {
    asked.push({ kind, outcome: 'failed' });
    throw error;
  }
}
