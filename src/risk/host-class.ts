// Host classification for server risk: literal checks on the URL's host text
// (docs/rules/risk-model.md#r-host-2-host-classes).

/** Where a server's endpoint lives, as the server-risk transport and auth axes see it. */
export type HostClass = 'STDIO' | 'LOOPBACK' | 'PRIVATE_LAN' | 'PUBLIC';

/** How Portcullis reaches an upstream server. */
export type TransportKind = 'stdio' | 'streamable-http' | 'sse';

// Characters that make java.net.URI refuse a string; then the reference falls back to a manual parse.
const URI_ILLEGAL_ASCII = '"<>\\^`{|}';
const BAD_ESCAPE = /%(?![0-9A-Fa-f]{2})/;
const NON_ASCII_SPACE = /[\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]/;

function isIllegalInUri(url: string): boolean {
  for (let i = 0; i < url.length; i += 1) {
    const code = url.charCodeAt(i);
    // Controls, space, DEL and the C1 controls are never legal in java.net.URI.
    if (code <= 0x20 || (code >= 0x7f && code <= 0x9f) || URI_ILLEGAL_ASCII.includes(url[i] as string))
      return true;
  }
  return BAD_ESCAPE.test(url) || NON_ASCII_SPACE.test(url);
}
const AUTHORITY = /^(?:[A-Za-z][A-Za-z0-9+.-]*:)?\/\/([^/?#]*)/;
const PORT_SUFFIX = /:[0-9]*$/;

function hostFromAuthority(authority: string): string | null {
  const afterUser = authority.slice(authority.lastIndexOf('@') + 1);
  if (afterUser.startsWith('[')) {
    const close = afterUser.indexOf(']');
    return close < 0 ? null : afterUser.slice(0, close + 1);
  }
  const host = afterUser.replace(PORT_SUFFIX, '');
  // java.net.URI leaves the host null when ':' remains (a non-numeric port): no server-based authority.
  return host.includes(':') ? null : host;
}

function uriHost(url: string): string | null {
  if (isIllegalInUri(url)) return null;
  const match = AUTHORITY.exec(url);
  if (match === null) return null;
  return hostFromAuthority(match[1] as string);
}

function manualHost(url: string): string | null {
  const start = url.indexOf('://');
  if (start < 0) return null;
  let rest = url.slice(start + 3);
  const slash = rest.indexOf('/');
  if (slash >= 0) rest = rest.slice(0, slash);
  rest = rest.slice(rest.lastIndexOf('@') + 1);
  if (rest.startsWith('[')) {
    const close = rest.indexOf(']');
    return close < 0 ? rest : rest.slice(0, close + 1);
  }
  const colon = rest.indexOf(':');
  return colon < 0 ? rest : rest.slice(0, colon);
}

/**
 * The host text of a URL as the reference classifier sees it: java.net.URI's host, else a manual parse
 * (text after `://` to the first `/`, without `user@`, bracketed IPv6 kept whole, `:port` stripped);
 * lower-cased, trimmed and without surrounding brackets. Null when there is no host.
 */
export function extractHost(url: string | null | undefined): string | null {
  if (url === null || url === undefined || url.trim() === '') return null;
  const raw = uriHost(url) || manualHost(url);
  if (raw === null) return null;
  let host = raw.trim().toLowerCase();
  if (host.startsWith('[') && host.endsWith(']')) host = host.slice(1, -1);
  return host === '' ? null : host;
}

const PRIVATE_LAN = [
  /^10\.[0-9]{1,3}\.[0-9]{1,3}\.[0-9]{1,3}$/,
  /^192\.168\.[0-9]{1,3}\.[0-9]{1,3}$/,
  /^172\.(?:1[6-9]|2[0-9]|3[01])\.[0-9]{1,3}\.[0-9]{1,3}$/,
  /^169\.254\.[0-9]{1,3}\.[0-9]{1,3}$/,
  /^f[cd][0-9a-f]{0,2}:/i,
  /^fe[89ab][0-9a-f]?:/i,
];

/** True for the literal loopback names of the reference: `127.0.0.1`, `::1`, `localhost`, `*.localhost`. */
export function isLoopbackHost(host: string): boolean {
  return host === '127.0.0.1' || host === '::1' || host === 'localhost' || host.endsWith('.localhost');
}

/** True for the private-LAN text forms of the reference (octets not range-checked; ULA and link-local IPv6). */
export function isPrivateLanHost(host: string): boolean {
  return PRIVATE_LAN.some((pattern) => pattern.test(host));
}

/**
 * Classifies a server endpoint (R-HOST-2): stdio is STDIO whatever the URL; no host is PUBLIC;
 * only the literal loopback names are LOOPBACK (`127.0.0.2` and `0.0.0.0` are PUBLIC).
 */
export function classifyHost(transport: TransportKind, url: string | null | undefined): HostClass {
  if (transport === 'stdio') return 'STDIO';
  const host = extractHost(url);
  if (host === null) return 'PUBLIC';
  if (isLoopbackHost(host)) return 'LOOPBACK';
  if (isPrivateLanHost(host)) return 'PRIVATE_LAN';
  return 'PUBLIC';
}
