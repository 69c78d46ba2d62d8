/**
 * An upstream's `-32021` (missing required client capability) on a relayed 2026-era call concerns the caller's
 * own request: the gateway declared the caller's per-request capabilities upstream, the upstream needs one the
 * caller did not declare, and the caller can fix that by declaring it. Only then does the refusal become
 * CLIENT_CAPABILITY_REQUIRED (answered as the JSON-RPC -32021, docs/errors.md); any other upstream JSON-RPC
 * error stays UPSTREAM_ERROR. The error's data is rebuilt by the gateway, never copied from the upstream.
 */
import { ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/client';
import type { UpstreamConfig } from '../config/index.ts';
import { PortcullisError } from '../errors/index.ts';
import type { CallerCapabilities } from './types.ts';
import { isRecord } from '../shared/index.ts';

/** The capabilities the gateway declares upstream for a caller that has them: the only ones a caller can fix. */
const RELAYED_CAPABILITIES = ['elicitation', 'sampling', 'roots'] as const;
type RelayedCapability = (typeof RELAYED_CAPABILITIES)[number];

/** More names than this in `requiredCapabilities` is not a capability the caller can add: refused as is. */
const MAX_REQUIRED_NAMES = 8;

/**
 * The caller-facing refusal of a relayed call whose upstream answered -32021 for capabilities the caller did not
 * declare (and the gateway would declare for it); undefined for every other error, which stays UPSTREAM_ERROR.
 */
export function callerCapabilityError(
  config: Pick<UpstreamConfig, 'id' | 'sampling'>,
  caller: CallerCapabilities | undefined,
  toolName: string,
  error: unknown,
): PortcullisError | undefined {
  if (caller === undefined) return undefined;
  if (!(error instanceof ProtocolError) || error.code !== ProtocolErrorCode.MissingRequiredClientCapability)
    return undefined;
  const missing = missingCallerCapabilities(config, caller, error.data);
  if (missing === undefined) return undefined;
  return new PortcullisError(
    'CLIENT_CAPABILITY_REQUIRED',
    `upstream "${config.id}" needs client capabilities this request did not declare to run tool ${toolName}: ` +
      `${missing.join(', ')}; declare them in _meta "io.modelcontextprotocol/clientCapabilities" and call again`,
    {
      cause: error,
      details: { requiredCapabilities: Object.fromEntries(missing.map((name) => [name, {}])) },
    },
  );
}

/**
 * The names in the upstream's `data.requiredCapabilities` when every one is a capability the gateway declares
 * upstream for a caller that has it (sampling only where the upstream is trusted with it) and the caller lacks
 * it; undefined otherwise (the caller declaring something would not help, so it is the upstream's failure).
 */
function missingCallerCapabilities(
  config: Pick<UpstreamConfig, 'sampling'>,
  caller: CallerCapabilities,
  data: unknown,
): RelayedCapability[] | undefined {
  const required = isRecord(data) ? data['requiredCapabilities'] : undefined;
  if (!isRecord(required)) return undefined;
  const names = Object.keys(required);
  if (names.length === 0 || names.length > MAX_REQUIRED_NAMES) return undefined;
  const missing: RelayedCapability[] = [];
  for (const name of names) {
    const capability = RELAYED_CAPABILITIES.find((known) => known === name);
    if (capability === undefined || caller[capability]) return undefined;
    if (capability === 'sampling' && !config.sampling) return undefined;
    missing.push(capability);
  }
  return missing;
}
