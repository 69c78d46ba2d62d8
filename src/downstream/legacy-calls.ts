/**
 * The 2025-era call path: the session's stream stays open for the whole call, so the approval prompt and any
 * upstream question (elicitation, sampling) are asked in-call as server-to-client requests, each with an
 * explicit timeout.
 */
import { SdkError, SdkErrorCode, type CallToolResult, type ElicitResult } from '@modelcontextprotocol/server';
import type { ElicitationOutcome } from '../approval/index.ts';
import type { AuditUpstreamRequest } from '../audit/index.ts';
import type { UpstreamElicitation, UpstreamSampling } from '../upstream/index.ts';
import type { LegacyCall } from './gateway-core.ts';
import { markAsUpstreams, relayElicitation, relaySampling } from './upstream-questions.ts';

/** Asks for approval on the call's own stream; maps every ending (timeout, disconnect, error) to an outcome. */
async function askOnStream(
  call: LegacyCall,
  prompt: string,
  canElicit: boolean,
  timeoutMs: number,
): Promise<ElicitationOutcome> {
  if (!canElicit) return 'unsupported';
  try {
    const result = await call.elicit(
      { message: prompt, requestedSchema: { type: 'object', properties: {} } },
      { timeout: timeoutMs, signal: call.signal },
    );
    return result.action;
  } catch (error) {
    if (error instanceof SdkError && error.code === SdkErrorCode.RequestTimeout) return 'timeout';
    return call.signal.aborted || (error instanceof SdkError && error.code === SdkErrorCode.ConnectionClosed)
      ? 'disconnect'
      : 'cancel';
  }
}

/** Runs one 2025-era tools/call through the pipeline, asking the client in-call. */
export async function callLegacy(call: LegacyCall): Promise<CallToolResult> {
  const { core, alias, upstreamId } = call;
  const timeout = core.elicitationTimeoutMs;
  const asked: AuditUpstreamRequest[] = [];
  const canElicit = call.clientCanElicit;
  const askClient = canElicit
    ? (params: UpstreamElicitation, signal: AbortSignal): Promise<ElicitResult> =>
        relayElicitation(() => call.elicit(markAsUpstreams(params, upstreamId), { signal, timeout }), asked)
    : undefined;
  const askSampling = call.clientCanSample
    ? (params: UpstreamSampling, signal: AbortSignal) =>
        relaySampling(core, alias, params, (reviewed) => call.sample(reviewed, { signal, timeout }), asked)
    : undefined;
  const askApproval = (prompt: string) => askOnStream(call, prompt, canElicit, timeout);
  return call.project(
    await core.pipeline.call(
      alias,
      call.args,
      call.caller({
        canElicit,
        askApproval,
        upstreamRequests: asked,
        ...(askClient ? { askClient } : {}),
        ...(askSampling ? { askSampling } : {}),
      }),
    ),
  );
}
