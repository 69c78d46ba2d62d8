/**
 * The SSRF corpus for the egress guard: URLs a hostile tool (or a client steering one) asks `fetch` for, the
 * answers of a controlled resolver, and the refusal reason Portcullis promises (docs/security.md, "The egress
 * guard"). 127.0.0.3 stands for a public host in these tests (the one trusted address); every other loopback
 * address is still refused.
 */

/** The address the test server listens on and the guard is told to trust. */
export const TRUSTED = '127.0.0.3';

/** The controlled resolver's fixed answers. */
export const DNS: Record<string, string[]> = {
  'public.test': [TRUSTED],
  'good.example': [TRUSTED],
  'api.good.example': [TRUSTED],
  'internal.test': ['10.0.0.5'],
  'metadata.test': ['169.254.169.254'],
  'loopback.test': ['127.0.0.1'],
  localhost: ['127.0.0.1', '::1'],
  'cgnat.test': ['100.100.100.100'],
  'unspecified.test': ['0.0.0.0'],
  'ula.test': ['fd00::1'],
  'linklocal6.test': ['fe80::1'],
  'mapped.test': ['::ffff:192.168.1.1'],
  'translated.test': ['::ffff:0:a00:1'],
  'nat64.test': ['64:ff9b::a9fe:a9fe'],
  'sixtofour.test': ['2002:c0a8:101::1'],
  'teredo.test': ['2001:0:4136:e378:8000:63bf:f5ff:fffe'],
  'mixed.test': ['93.184.216.34', '10.0.0.1'],
  'mixed6.test': ['2606:4700:4700::1111', '::1'],
};

/** One refused destination: [label, url, reason]. */
export type SsrfCase = readonly [label: string, url: string, reason: string];

const literal = 'literal-private-ip';
const resolved = 'resolved-private-ip';
const ambiguous = 'ambiguous-url';

/** Refused in strict mode, by category. */
export const REFUSED: Record<string, readonly SsrfCase[]> = {
  'private and reserved IPv4': [
    ['10/8', 'http://10.0.0.1/', literal],
    ['172.16/12 low', 'http://172.16.0.1/', literal],
    ['172.16/12 high', 'http://172.31.255.255/', literal],
    ['192.168/16', 'http://192.168.0.1/', literal],
    ['this network', 'http://0.0.0.0/', literal],
    ['broadcast', 'http://255.255.255.255/', literal],
    ['multicast mDNS', 'http://224.0.0.251/', literal],
    ['benchmarking', 'http://198.18.0.1/', literal],
    ['IETF protocol assignments', 'http://192.0.0.170/', literal],
    ['class E', 'http://240.0.0.1/', literal],
  ],
  loopback: [
    ['127.0.0.1', 'http://127.0.0.1/', literal],
    ['another loopback address', 'http://127.255.255.254/', literal],
    ['IPv6 loopback', 'http://[::1]/', literal],
    ['IPv6 unspecified', 'http://[::]/', literal],
  ],
  'link-local': [
    ['cloud metadata', 'http://169.254.169.254/latest/meta-data/', literal],
    ['link-local IPv4', 'http://169.254.0.1/', literal],
    ['IPv6 link-local', 'http://[fe80::1]/', literal],
    ['IPv6 link-local with a zone id', 'http://[fe80::1%25lo]/', ambiguous],
  ],
  CGNAT: [
    ['CGNAT low', 'http://100.64.0.1/', literal],
    ['CGNAT high', 'http://100.127.255.255/', literal],
  ],
  'ULA and other IPv6': [
    ['ULA fc00::/7 low', 'http://[fc00::1]/', literal],
    ['ULA fd', 'http://[fd12:3456:789a::1]/', literal],
    ['site-local', 'http://[fec0::1]/', literal],
    ['IPv6 multicast', 'http://[ff02::1]/', literal],
    ['discard-only', 'http://[100::1]/', literal],
    ['documentation', 'http://[2001:db8::1]/', literal],
  ],
  'embedded IPv4': [
    ['IPv4-mapped loopback', 'http://[::ffff:127.0.0.1]/', literal],
    ['IPv4-mapped metadata in hex', 'http://[::ffff:a9fe:a9fe]/', literal],
    ['IPv4-mapped in full form', 'http://[0:0:0:0:0:ffff:127.0.0.1]/', literal],
    ['IPv4-translated (SIIT) loopback', 'http://[::ffff:0:7f00:1]/', literal],
    ['IPv4-compatible loopback', 'http://[::127.0.0.1]/', literal],
    ['NAT64 loopback', 'http://[64:ff9b::127.0.0.1]/', literal],
    ['NAT64 metadata', 'http://[64:ff9b::a9fe:a9fe]/', literal],
    ['local-use NAT64 private', 'http://[64:ff9b:1::a00:1]/', literal],
    ['6to4 loopback', 'http://[2002:7f00:1::1]/', literal],
    ['6to4 metadata', 'http://[2002:a9fe:a9fe::]/', literal],
    ['Teredo with a private client', 'http://[2001:0:4136:e378:8000:63bf:f5ff:fffe]/', literal],
  ],
  'numeric host forms': [
    ['decimal loopback', 'http://2130706433/', literal],
    ['decimal 10/8', 'http://167772161/', literal],
    ['decimal metadata', 'http://2852039166/', literal],
    ['octal loopback', 'http://0177.0.0.1/', literal],
    ['octal 10/8', 'http://012.0.0.1/', literal],
    ['octal metadata', 'http://0251.0376.0251.0376/', literal],
    ['hex loopback', 'http://0x7f000001/', literal],
    ['dotted hex', 'http://0x7f.0x0.0x0.0x1/', literal],
    ['hex metadata', 'http://0xa9fea9fe/', literal],
    ['mixed radix', 'http://0xa9.254.0251.0xfe/', literal],
    ['short form', 'http://127.1/', literal],
    ['short form 10/8', 'http://10.1/', literal],
    ['leading zeros', 'http://127.000.000.001/', literal],
    ['trailing dot', 'http://127.0.0.1./', literal],
  ],
  'names resolving privately': [
    ['a name for 10/8', 'http://internal.test/', resolved],
    ['a name for metadata', 'http://metadata.test/', resolved],
    ['a name for loopback', 'http://loopback.test/', resolved],
    ['localhost', 'http://localhost/', resolved],
    ['a name for CGNAT', 'http://cgnat.test/', resolved],
    ['a name for 0.0.0.0', 'http://unspecified.test/', resolved],
    ['a name for ULA', 'http://ula.test/', resolved],
    ['a name for IPv6 link-local', 'http://linklocal6.test/', resolved],
    ['a name for IPv4-mapped private', 'http://mapped.test/', resolved],
    ['a name for IPv4-translated private', 'http://translated.test/', resolved],
    ['a name for NAT64 metadata', 'http://nat64.test/', resolved],
    ['a name for 6to4 private', 'http://sixtofour.test/', resolved],
    ['a name for Teredo private', 'http://teredo.test/', resolved],
    ['one private answer among public ones', 'http://mixed.test/', resolved],
    ['one IPv6 loopback answer among public ones', 'http://mixed6.test/', resolved],
  ],
  'parser differentials': [
    ['userinfo naming the good host', 'http://public.test@internal.test/', ambiguous],
    ['userinfo with a password', 'http://user:pass@public.test/', ambiguous],
    ['empty userinfo', 'http://@public.test/', ambiguous],
    ['backslash before @', 'http://internal.test\\@public.test/', ambiguous],
    ['backslash as a path start', 'http://public.test\\.internal.test/', ambiguous],
    ['backslashes for slashes', 'http:\\\\internal.test\\', ambiguous],
    ['fragment then @', 'http://internal.test#@public.test/', ambiguous],
    ['query then @', 'http://internal.test?@public.test/', ambiguous],
    ['encoded slash before @', 'http://public.test%2f@internal.test/', ambiguous],
    ['encoded @ in the host', 'http://public.test%40internal.test/', ambiguous],
    ['encoded dot in the host', 'http://internal%2etest/', ambiguous],
    ['encoded letters in the host', 'http://%69nternal.test/', ambiguous],
    ['tab inside the host', 'http://inter\tnal.test/', ambiguous],
    ['one slash', 'http:/internal.test/', ambiguous],
    ['three slashes', 'http:///internal.test/', ambiguous],
    ['fullwidth dot', 'http://internal\uff0etest/', ambiguous],
    ['non-ASCII host', 'http://\u0131nternal.test/', ambiguous],
  ],
  schemes: [
    ['file', 'file:///etc/passwd', 'unsupported-scheme'],
    ['gopher', 'gopher://public.test:70/_GET', 'unsupported-scheme'],
    ['data', 'data:text/plain,hello', 'unsupported-scheme'],
    ['ftp', 'ftp://public.test/', 'unsupported-scheme'],
  ],
};

/** Redirect targets an allowed public host may answer with, and the reason the next hop is refused. */
export const REDIRECTS: readonly SsrfCase[] = [
  ['loopback literal', 'http://127.0.0.1/', literal],
  ['metadata literal', 'http://169.254.169.254/latest/meta-data/', literal],
  ['decimal loopback', 'http://2130706433/', literal],
  ['IPv4-mapped loopback', 'http://[::ffff:127.0.0.1]/', literal],
  ['a name resolving privately', 'http://internal.test/', resolved],
  ['localhost', 'http://localhost/', resolved],
  ['userinfo', 'http://public.test@internal.test/', ambiguous],
  ['protocol-relative backslash', '/\\internal.test/', ambiguous],
  ['a file URL', 'file:///etc/passwd', 'unsupported-scheme'],
];
