/**
 * The console's response headers and its write check: a strict Content-Security-Policy (no inline script or
 * style), no sniffing, no framing, no caching, no referrer outside the origin; and writes only from a page of the
 * console's own origin (Origin or Sec-Fetch-Site says so), since forms cannot carry the admin API's JSON-only
 * defence. The referrer policy is `same-origin`, not `no-referrer`: under `no-referrer` browsers send
 * `Origin: null` on the console's own form posts, and over plain http to a remote host they send no
 * Sec-Fetch-Site either, which would leave the same-origin check nothing to read.
 */

/** The Content-Security-Policy of every console response. */
export const CONSOLE_CSP =
  "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; frame-ancestors 'none'; " +
  "form-action 'self'; base-uri 'none'";

/** Headers every console response carries. */
export const CONSOLE_HEADERS: Readonly<Record<string, string>> = {
  'content-security-policy': CONSOLE_CSP,
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'same-origin',
  'x-frame-options': 'DENY',
  'cache-control': 'no-store',
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
};

/** The request's own origin, `scheme://host[:port]`. */
export function selfOriginOf(request: Request): string {
  const url = new URL(request.url);
  return `${url.protocol}//${request.headers.get('host') ?? url.host}`;
}

/**
 * Why a write is refused as not same-origin, or undefined when the page that sent it is the console's own: the
 * Origin header equals the request's origin, or (Origin absent or `null`, as privacy settings may make it)
 * Sec-Fetch-Site is `same-origin`. A request that shows neither is refused: browsers send one on a form post.
 */
export function crossOriginWrite(request: Request): string | undefined {
  const origin = request.headers.get('origin');
  const site = request.headers.get('sec-fetch-site')?.toLowerCase();
  if (origin !== null && origin !== 'null') {
    if (origin.toLowerCase() !== selfOriginOf(request).toLowerCase())
      return 'the form was sent from another origin';
    if (site !== undefined && site !== 'same-origin') return 'the form was sent from another site';
    return undefined;
  }
  return site === 'same-origin' ? undefined : 'the request shows no same-origin Origin or Sec-Fetch-Site';
}
