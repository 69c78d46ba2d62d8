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

/** Returns a reason string when the Host header is not allowed (DNS rebinding), else undefined. */
export function checkHost(request: Request, hosts: readonly string[]): string | undefined {
  const host = validateHostHeader(request.headers.get('host'), [...hosts]);
  return host.ok ? undefined : host.message;
}

/** Returns a reason string when Host or Origin is not allowed, else undefined. */
export function checkHostAndOrigin(
  request: Request,
  hosts: readonly string[],
  origins: readonly string[],
): string | undefined {
  const host = checkHost(request, hosts);
  if (host) return host;
  const origin = validateOriginHeader(request.headers.get('origin'), [...origins]);
  if (!origin.ok) return origin.message;
  return undefined;
}
