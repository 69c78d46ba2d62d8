/**
 * The audit rows of the non-tool reads a model is fed from: every `prompts/get` and `resources/read`, answered or
 * refused, runs in a SERVER span of its own and is written with who asked, through which profile, which upstream
 * answered and how it ended, as a tool call is. The answer waits until its row is durable; a failed write is logged and the answer stands, as on the
 * tool path.
 */
import { ProtocolError } from '@modelcontextprotocol/server';
import type { AuditInput, AuditResponseScan } from '../audit/index.ts';
import type { RequestTrace } from '../telemetry/index.ts';
import type { DownstreamIdentity, GatewayCore } from './gateway-core.ts';
import { STDIO_PRINCIPAL } from './call-context.ts';

/** What one surface read is about. */
export interface SurfaceRead {
  kind: 'prompt' | 'resource';
  /** The prompt's exposed name or the resource's URI. */
  target: string;
  /** The upstream that serves it; undefined when nothing the caller may read matches. */
  upstreamId: string | undefined;
  args?: Record<string, string> | undefined;
}

/** What a read's handler tells its row beyond its result: the response scan's record, a relayed round. */
export interface SurfaceReadNotes {
  /** The read's request trace, for the response scan's span event (set before the handler runs). */
  trace?: RequestTrace | undefined;
  responseScan?: AuditResponseScan;
  /** The answer is a 2026-era upstream's input round, relayed to the client (the read goes on in its retry). */
  inputRequired?: boolean;
}

/** The stable code a failed read is recorded with. */
function errorCodeOf(read: SurfaceRead, error: unknown): string {
  if (read.upstreamId === undefined) return read.kind === 'prompt' ? 'UNKNOWN_PROMPT' : 'UNKNOWN_RESOURCE';
  const data = error instanceof ProtocolError ? (error.data as { code?: unknown } | undefined) : undefined;
  return typeof data?.code === 'string' ? data.code : 'UPSTREAM_ERROR';
}

/** Runs one read and writes its audit row; resolves or rejects as `run` does, once the row is written. */
export async function auditedSurfaceRead<T>(
  core: GatewayCore,
  identity: DownstreamIdentity,
  read: SurfaceRead,
  run: (notes: SurfaceReadNotes) => Promise<T>,
): Promise<T> {
  const started = performance.now();
  const notes: SurfaceReadNotes = {};
  const row = (outcome: AuditInput['outcome'], traceId: string | null, errorCode?: string): AuditInput => ({
    origin: read.kind,
    upstreamId: read.upstreamId ?? null,
    principal: identity.principal.id,
    profile: identity.profile.name,
    sessionId: identity.sessionId ?? null,
    alias: read.target,
    risk: null,
    approval:
      read.upstreamId === undefined
        ? { mode: null, decision: 'deny', ruleId: `gateway:${errorCode ?? 'UNKNOWN'}` }
        : { mode: null, decision: 'allow' },
    arguments: read.args ?? {},
    outcome,
    ...(errorCode === undefined ? {} : { errorCode }),
    ...(notes.responseScan === undefined ? {} : { responseScan: notes.responseScan }),
    durationMs: Math.max(0, performance.now() - started),
    traceId,
  });
  const info = {
    method: read.kind === 'prompt' ? 'prompts/get' : 'resources/read',
    target: read.target,
    sessionId: identity.sessionId,
    principal: identity.principal.id,
    profile: identity.profile.name,
    transport: identity.principal.id === STDIO_PRINCIPAL.id ? ('pipe' as const) : ('tcp' as const),
  };
  return core.telemetry.traceRequest(
    info,
    async (trace) => {
      notes.trace = trace;
      const traceId = trace?.traceId ?? null;
      let result: T;
      try {
        result = await run(notes);
      } catch (error) {
        await core.recordSurface(row('ERROR', traceId, errorCodeOf(read, error)));
        throw error;
      }
      await core.recordSurface(row(notes.inputRequired === true ? 'INPUT_REQUIRED' : 'OK', traceId));
      return result;
    },
    'handed',
  );
}
