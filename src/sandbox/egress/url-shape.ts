/**
 * Refuses URLs whose host different URL parsers would read differently (docs/security.md, "Egress"): the guard
 * checks one reading and connects with it, but the same text logged, shown to a person, or handed to another
 * library could name another host. Only plain `scheme://host[:port]` authorities in ASCII pass.
 */
import { PortcullisError } from '../../errors/index.ts';

const SCHEME = /^[A-Za-z][A-Za-z0-9+.-]*:/;
// C0 controls, space and DEL: the WHATWG parser strips or skips some of them, other parsers keep them.
const hasControlOrSpace = (text: string): boolean => {
  for (let i = 0; i < text.length; i += 1) {
    const code = text.charCodeAt(i);
    if (code <= 0x20 || code === 0x7f) return true;
  }
  return false;
};
const NON_ASCII = /[^\p{ASCII}]/u;

function ambiguous(what: string): PortcullisError {
  return new PortcullisError(
    'SECURITY',
    `fetch refused: ambiguous URL (${what}); URL parsers disagree on which host it names. Write it as ` +
      'scheme://host[:port]/path with an ASCII host (punycode for international names) and percent-encode the rest',
    { reason: 'ambiguous-url' },
  );
}

/** Throws SECURITY `ambiguous-url` unless the raw text of an absolute URL has one unambiguous host. */
export function assertUnambiguousUrl(raw: string): void {
  assertNoConfusingCharacters(raw);
  const scheme = SCHEME.exec(raw)?.[0];
  // Not absolute: the parser refuses it as invalid. Not http(s): the guard refuses the scheme itself.
  if (scheme === undefined || !/^https?:$/i.test(scheme)) return;
  const rest = raw.slice(scheme.length);
  if (!rest.startsWith('//') || rest.startsWith('///')) {
    throw ambiguous('the scheme must be followed by exactly two slashes and a host');
  }
  assertPlainAuthority(rest.slice(2));
}

/**
 * Throws SECURITY `ambiguous-url` for a redirect `Location` that could name another host than the one the
 * guard resolves it to; plain relative paths stay on the already checked host.
 */
export function assertUnambiguousLocation(location: string): void {
  assertNoConfusingCharacters(location);
  if (SCHEME.test(location)) assertUnambiguousUrl(location);
  else if (location.startsWith('//')) assertUnambiguousUrl(`http:${location}`);
}

/** Throws when a parsed URL still carries credentials (a URL object built elsewhere). */
export function assertNoUserinfo(url: URL): void {
  if (url.username !== '' || url.password !== '') throw ambiguous('userinfo before the host');
}

function assertNoConfusingCharacters(raw: string): void {
  if (hasControlOrSpace(raw)) throw ambiguous('a control character or space');
  if (raw.includes('\\')) throw ambiguous('a backslash, which some parsers read as a slash');
  if (raw.includes('#@')) throw ambiguous('"#@", which a lenient reader takes for userinfo');
}

/** `afterSlashes` is the URL text after `scheme://`. */
function assertPlainAuthority(afterSlashes: string): void {
  // Up to the first "/": a reader that ends the authority only there (not at "?" or "#") sees any "@" before
  // it as the end of userinfo.
  const slash = afterSlashes.indexOf('/');
  const beforePath = slash === -1 ? afterSlashes : afterSlashes.slice(0, slash);
  if (beforePath.includes('@')) throw ambiguous('userinfo before the host');
  const end = beforePath.search(/[?#]/);
  const authority = end === -1 ? beforePath : beforePath.slice(0, end);
  if (authority.includes('%')) throw ambiguous('percent-encoding in the host');
  if (NON_ASCII.test(authority)) throw ambiguous('a non-ASCII character in the host');
}
