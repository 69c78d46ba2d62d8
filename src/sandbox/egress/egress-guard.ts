/**
 * The one egress guard every sandbox fetch goes through (DESIGN.md decision 3, reference-rules §11, D1, D5):
 * scheme check, host allowlist, IP-range filter on every resolved address (not in `open` mode), DNS pinning,
 * manual redirects with every hop re-checked, and the body cap enforced while streaming.
 */
import { lookup } from 'node:dns/promises';
import { validateHeaderName, validateHeaderValue } from 'node:http';
import { isIP } from 'node:net';
import { PortcullisError } from '../../errors/index.ts';
import { isHostAllowed } from '../../shared/index.ts';
import { classifyAddress, createAddressTrust } from './ip-ranges.ts';
import { sendPinnedRequest } from './pinned-request.ts';
import {
  assertSecretDestination,
  carriesHandles,
  concealError,
  revealBody,
  revealHeaders,
  revealUrl,
  shownUrl,
} from './secret-egress.ts';
import { assertNoUserinfo, assertUnambiguousLocation, assertUnambiguousUrl } from './url-shape.ts';
import type { SecretVault } from './secret-vault.ts';
import type {
  EgressPolicy,
  EgressRequest,
  EgressResponse,
  EgressTarget,
  ResolvedAddress,
  Resolver,
} from './types.ts';

/** Options of the guard; the defaults are the reference limits (connect 5 s, total 30 s, 5 redirects). */
export interface EgressGuardOptions {
  /** Resolves hostnames; tests pass a hook so that answers can differ between calls. */
  resolve?: Resolver;
  /**
   * Addresses or CIDR ranges trusted although private (test-only, or an explicit operator opt-in). Every other
   * check still applies; the default is none.
   */
  allowAddresses?: readonly string[];
  connectTimeoutMs?: number;
  totalTimeoutMs?: number;
  maxRedirects?: number;
  /** Sent when the request has no User-Agent. */
  userAgent?: string;
}

/** Checks destinations and performs guarded fetches. */
export interface EgressGuard {
  /** Checks one URL against the policy and resolves it to the one address a connection may use. */
  check(url: string | URL, policy: EgressPolicy): Promise<EgressTarget>;
  /** Fetches under the policy: every hop checked and pinned, body capped while streaming. */
  fetch(request: EgressRequest, policy: EgressPolicy): Promise<EgressResponse>;
}

const DROPPED_REQUEST_HEADERS = new Set([
  'connection',
  'content-length',
  'expect',
  'host',
  'upgrade',
  'transfer-encoding',
  'te',
  'trailer',
  'keep-alive',
  'proxy-connection',
  'accept-encoding',
]);

// Credentials do not follow a redirect to another origin (the Fetch standard's rule; the reference re-sends them).
const CROSS_ORIGIN_DROPPED = new Set(['authorization', 'cookie', 'proxy-authorization']);

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const REFUSED_METHODS = new Set(['CONNECT', 'TRACE', 'TRACK']);
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

const systemResolver: Resolver = async (hostname) => {
  const answers = await lookup(hostname, { all: true, verbatim: true });
  return answers.map((answer) => ({ address: answer.address, family: answer.family === 6 ? 6 : 4 }));
};

function security(reason: string, message: string): PortcullisError {
  return new PortcullisError('SECURITY', message, { reason });
}

function parseUrl(input: string | URL): URL {
  if (input instanceof URL) return input;
  // Before parsing: the parser itself repairs (and so hides) the shapes other parsers read differently.
  assertUnambiguousUrl(input);
  try {
    return new URL(input);
  } catch {
    throw new PortcullisError('INVALID_INPUT', `fetch: invalid URL: ${input}`, { reason: 'invalid-url' });
  }
}

function normalizeMethod(method: string | undefined): string {
  const raw = method ?? 'GET';
  if (!TOKEN.test(raw)) {
    throw new PortcullisError('INVALID_INPUT', `fetch: invalid method: ${raw}`, { reason: 'invalid-method' });
  }
  const upper = raw.toUpperCase();
  const out = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'].includes(upper) ? upper : raw;
  if (REFUSED_METHODS.has(upper)) {
    throw new PortcullisError('INVALID_INPUT', `fetch: method ${upper} is not allowed`, {
      reason: 'method-not-allowed',
    });
  }
  return out;
}

function normalizeHeaders(
  pairs: ReadonlyArray<readonly [string, string]> | undefined,
  userAgent: string,
): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  for (const [name, value] of pairs ?? []) {
    try {
      validateHeaderName(name);
      validateHeaderValue(name, value);
    } catch {
      throw new PortcullisError('INVALID_INPUT', `fetch: invalid header ${JSON.stringify(name)}`, {
        reason: 'invalid-header',
      });
    }
    const lower = name.toLowerCase();
    if (DROPPED_REQUEST_HEADERS.has(lower)) continue;
    const existing = out.find(([key]) => key === lower);
    if (existing) existing[1] = `${existing[1]}, ${value}`;
    else out.push([lower, value]);
  }
  if (!out.some(([key]) => key === 'user-agent')) out.push(['user-agent', userAgent]);
  // Bodies are capped on the wire bytes, so ask for them uncompressed.
  out.push(['accept-encoding', 'identity']);
  return out;
}

function clampInteger(value: number | undefined, fallback: number, max: number): number {
  if (value === undefined || !Number.isFinite(value) || value <= 0) return fallback;
  return Math.min(Math.floor(value), max);
}

// What comes back is concealed too: an allowed server that echoes a secret hands tool code its handle. A slice
// cut through a value (startIndex, maxLength, the cap) loses the cut part, so that paging cannot read it piecemeal.
function concealResponse(response: EgressResponse, vault: SecretVault, startedMid: boolean): EgressResponse {
  const text = (value: string): string => vault.conceal(value);
  const edges = vault.partialEdges(response.body, startedMid, response.truncated);
  const whole = response.body.subarray(edges.start, response.body.byteLength - edges.end);
  return {
    ...response,
    statusText: text(response.statusText),
    url: text(response.url),
    headers: response.headers.map(([name, value]) => [name, text(value)]),
    contentType: response.contentType === null ? null : text(response.contentType),
    body: vault.concealBytes(whole),
    nextStartIndex: response.nextStartIndex === null ? null : response.nextStartIndex - edges.end,
  };
}

/** Builds the egress guard. */
export function createEgressGuard(options: EgressGuardOptions = {}): EgressGuard {
  const resolve = options.resolve ?? systemResolver;
  const trust = createAddressTrust(options.allowAddresses ?? []);
  const connectTimeoutMs = options.connectTimeoutMs ?? 5_000;
  const totalTimeoutMs = options.totalTimeoutMs ?? 30_000;
  const maxRedirects = options.maxRedirects ?? 5;
  const userAgent = options.userAgent ?? 'portcullis-sandbox';

  const checkAddress = (address: string, reason: 'literal-private-ip' | 'resolved-private-ip'): void => {
    if (trust.trusts(address)) return;
    const verdict = classifyAddress(address);
    if (verdict.blocked) {
      throw security(reason, `fetch refused: ${address} is in a blocked address range (${verdict.range})`);
    }
  };

  const check = async (input: string | URL, policy: EgressPolicy): Promise<EgressTarget> => {
    const url = parseUrl(input);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      throw security('unsupported-scheme', `fetch refused: scheme ${url.protocol} is not http or https`);
    }
    assertNoUserinfo(url);
    const hostname = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
    if (hostname === '') {
      throw new PortcullisError('INVALID_INPUT', 'fetch: the URL has no host', { reason: 'missing-host' });
    }
    const mode = policy.networkMode;
    if (mode === 'blocked') throw security('network-blocked', 'fetch refused: network access is blocked');
    if (mode === 'allowlist' && !isHostAllowed(hostname, policy.hostsAllow)) {
      throw security('host-not-in-allowlist', `fetch refused: host ${hostname} is not in the allowlist`);
    }
    const literal = isIP(hostname);
    if (literal !== 0) {
      if (mode !== 'open') checkAddress(hostname, 'literal-private-ip');
      return { url, hostname, address: { address: hostname, family: literal === 6 ? 6 : 4 } };
    }
    let answers: ResolvedAddress[];
    try {
      answers = await resolve(hostname);
    } catch (error) {
      throw new PortcullisError('HELPER_RUNTIME', `fetch: DNS resolution failed for ${hostname}`, {
        reason: 'dns-resolution-failed',
        cause: error,
      });
    }
    if (answers.length === 0) {
      throw new PortcullisError('HELPER_RUNTIME', `fetch: ${hostname} has no addresses`, {
        reason: 'dns-no-addresses',
      });
    }
    // Every answer is checked, not just the one used, so a mixed answer set fails closed.
    if (mode !== 'open') for (const answer of answers) checkAddress(answer.address, 'resolved-private-ip');
    const first = answers[0] as ResolvedAddress;
    return { url, hostname, address: { address: first.address, family: isIP(first.address) === 6 ? 6 : 4 } };
  };

  const fetch = async (request: EgressRequest, policy: EgressPolicy): Promise<EgressResponse> => {
    const controller = new AbortController();
    const timer = setTimeout(() => {
      controller.abort(
        new PortcullisError('HELPER_RUNTIME', `fetch did not finish within ${totalTimeoutMs} ms`, {
          reason: 'timeout',
        }),
      );
    }, totalTimeoutMs);
    const outer = request.signal;
    const onOuterAbort = (): void => controller.abort(outer?.reason);
    if (outer?.aborted) onOuterAbort();
    else outer?.addEventListener('abort', onOuterAbort, { once: true });
    try {
      return await followRedirects(request, policy, controller.signal);
    } catch (error) {
      throw request.secrets === undefined ? error : concealError(error, request.secrets);
    } finally {
      clearTimeout(timer);
      outer?.removeEventListener('abort', onOuterAbort);
    }
  };

  const followRedirects = async (
    request: EgressRequest,
    policy: EgressPolicy,
    signal: AbortSignal,
  ): Promise<EgressResponse> => {
    let method = normalizeMethod(request.method);
    let headers = normalizeHeaders(request.headers, userAgent);
    let body: Buffer | null =
      request.body === undefined || request.body === null || method === 'GET' || method === 'HEAD'
        ? null
        : Buffer.from(typeof request.body === 'string' ? Buffer.from(request.body, 'utf8') : request.body);
    let url: string | URL = request.url;
    const limit = clampInteger(request.maxLength, policy.maxFetchBytes, policy.maxFetchBytes);
    const startIndex =
      request.startIndex !== undefined && Number.isFinite(request.startIndex) && request.startIndex > 0
        ? Math.floor(request.startIndex)
        : 0;
    // `url`, `headers` and `body` stay in handle form across hops; each hop reveals them for its own host.
    const vault = request.secrets?.empty === false ? request.secrets : undefined;
    for (let redirects = 0; ; redirects += 1) {
      const target = await check(vault === undefined ? url : revealUrl(url, vault), policy);
      if (vault !== undefined && carriesHandles(url, headers, body, vault))
        assertSecretDestination(target.hostname, policy);
      const wireHeaders = vault === undefined ? headers : revealHeaders(headers, vault);
      const wireBody = vault === undefined ? body : revealBody(body, headers, vault);
      const sendHeaders =
        wireBody === null
          ? wireHeaders
          : [...wireHeaders, ['content-length', String(wireBody.length)] as [string, string]];
      const response = await sendPinnedRequest(
        { target, method, headers: sendHeaders, body: wireBody },
        {
          connectTimeoutMs,
          signal,
        },
      );
      const location = response.headers.find(([name]) => name === 'location')?.[1];
      if (REDIRECT_STATUSES.has(response.status) && location !== undefined) {
        response.discard();
        if (redirects >= maxRedirects) {
          throw security('too-many-redirects', `fetch refused: more than ${maxRedirects} redirects`);
        }
        assertUnambiguousLocation(location);
        let next: URL;
        try {
          next =
            vault === undefined
              ? new URL(location, target.url)
              : new URL(vault.conceal(location), shownUrl(url, target.url));
        } catch {
          throw new PortcullisError('HELPER_RUNTIME', `fetch: invalid redirect location ${location}`, {
            reason: 'invalid-redirect',
          });
        }
        const previousMethod = method;
        if (response.status === 303 && method !== 'HEAD') method = 'GET';
        else if (
          (response.status === 301 || response.status === 302) &&
          ['POST', 'PUT', 'PATCH'].includes(method)
        ) {
          method = 'GET';
        }
        if (!BODY_METHODS.has(method)) body = null;
        if (method !== previousMethod) headers = headers.filter(([name]) => !name.startsWith('content-'));
        if (next.origin !== target.url.origin)
          headers = headers.filter(([name]) => !CROSS_ORIGIN_DROPPED.has(name));
        url = next;
        continue;
      }
      const slice =
        method === 'HEAD'
          ? (response.discard(), { body: new Uint8Array(0), truncated: false, nextStartIndex: null })
          : await response.readBody(startIndex, limit);
      const result: EgressResponse = {
        status: response.status,
        statusText: response.statusText,
        url: target.url.href,
        redirected: redirects > 0,
        headers: response.headers,
        contentType: response.headers.find(([name]) => name === 'content-type')?.[1] ?? null,
        ...slice,
      };
      if (vault === undefined) return result;
      return concealResponse({ ...result, url: shownUrl(url, target.url).href }, vault, startIndex > 0);
    }
  };

  return { check, fetch };
}
