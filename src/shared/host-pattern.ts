/**
 * Host patterns, one meaning everywhere (the sandbox egress allowlist and the server catalog's `hosts`):
 * case-insensitive and trimmed; `*.example.com` matches `example.com` itself and every subdomain of it, but
 * not `notexample.com`; a bare `*` matches every host; any other pattern must match exactly. One trailing dot
 * (the DNS root) is ignored and IPv6 brackets are dropped, on both sides.
 *
 * The apex is included because whoever controls a domain's subdomains controls the domain too: excluding it
 * would protect nothing and surprise an operator who wrote `*.example.com` for "example.com and below".
 */

function normalizeHost(host: string): string {
  let out = host.trim().toLowerCase();
  if (out.startsWith('[') && out.endsWith(']')) out = out.slice(1, -1);
  if (out.endsWith('.')) out = out.slice(0, -1);
  return out;
}

/** True when `host` (a URL hostname) matches one `pattern` (see the file header for the rules). */
export function matchesHostPattern(host: string, pattern: string): boolean {
  const name = normalizeHost(host);
  const rule = pattern.trim().toLowerCase();
  if (name === '' || rule === '') return false;
  if (rule === '*') return true;
  if (rule.startsWith('*.')) {
    const suffix = normalizeHost(rule.slice(2));
    return suffix !== '' && (name === suffix || name.endsWith(`.${suffix}`));
  }
  return name === normalizeHost(rule);
}

/** True when `host` matches at least one of `patterns`; an empty list matches nothing. */
export function isHostAllowed(host: string, patterns: readonly string[]): boolean {
  return patterns.some((pattern) => matchesHostPattern(host, pattern));
}
