/** Door checks for /mcp and /admin: Host and Origin validation against DNS rebinding. */
import { validateHostHeader, validateOriginHeader } from '@modelcontextprotocol/server';

/** Host names always accepted for a loopback bind. */
const LOOPBACK_HOSTS = ['127.0.0.1', 'localhost', '[::1]', '::1'];

/** Computes the allowed Host and Origin host names for a bind address and the configured extras. */
export function allowedHostnames(bindHost: string, extra: readonly string[]): string[] {
  const names = new Set([...LOOPBACK_HOSTS, ...extra]);
  if (bindHost !== '0.0.0.0' && bindHost !== '::') names.add(bindHost);
  return [...names];
}

/** How many accepted Host values are remembered per allow-list (a client uses one or two). */
const REMEMBERED_HOSTS = 64;
/** Host header values already accepted, per allow-list: the URL parse runs once per value, not per request. */
const acceptedHosts = new WeakMap<readonly string[], Set<string>>();

/** Returns a reason string when the Host header is not allowed (DNS rebinding), else undefined. */
export function checkHost(request: Request, hosts: readonly string[]): string | undefined {
  const header = request.headers.get('host');
  const accepted = acceptedHosts.get(hosts);
  if (header !== null && accepted?.has(header)) return undefined;
  // The SDK only reads the list.
  const host = validateHostHeader(header, hosts as string[]);
  if (!host.ok) return host.message;
  if (header !== null) {
    if (accepted === undefined) acceptedHosts.set(hosts, new Set([header]));
    else if (accepted.size < REMEMBERED_HOSTS) accepted.add(header);
  }
  return undefined;
}

/** Returns a reason string when Host or Origin is not allowed, else undefined. */
export function checkHostAndOrigin(
  request: Request,
  hosts: readonly string[],
  origins: readonly string[],
): string | undefined {
  const host = checkHost(request, hosts);
  if (host) return host;
  const origin = validateOriginHeader(request.headers.get('origin'), origins as string[]);
  if (!origin.ok) return origin.message;
  return undefined;
}
