/**
 * The IP-range filter of the egress guard (docs/rules/sandbox.md#r-egress-3-address-filter): an
 * address is reachable only when it is ordinary global unicast. Every special IPv4 range and every IPv6 range
 * outside 2000::/3 is refused, and IPv6 forms that embed an IPv4 address are judged by the address they embed.
 */
import ipaddr from 'ipaddr.js';

/** The verdict on one address: allowed, or blocked with the name of the range that matched. */
export type AddressVerdict = { blocked: false } | { blocked: true; range: string };

const ALLOWED: AddressVerdict = { blocked: false };

/** Classifies one literal IPv4 or IPv6 address (no brackets); anything unparseable is blocked. */
export function classifyAddress(address: string): AddressVerdict {
  const text = address.startsWith('[') && address.endsWith(']') ? address.slice(1, -1) : address;
  // A zone id (fe80::1%eth0) names a link-local scope; never public.
  if (text.includes('%')) return { blocked: true, range: 'scoped' };
  let parsed: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    parsed = ipaddr.parse(text);
  } catch {
    return { blocked: true, range: 'invalid' };
  }
  return parsed.kind() === 'ipv4' ? classifyV4(parsed as ipaddr.IPv4) : classifyV6(parsed as ipaddr.IPv6);
}

function classifyV4(address: ipaddr.IPv4): AddressVerdict {
  const range = address.range();
  // ipaddr.js names every special-purpose block (0/8, 10/8, 100.64/10, 127/8, 169.254/16, 172.16/12,
  // 192.0.0/24, TEST-NETs, 192.168/16, 198.18/15, multicast, 240/4, broadcast, AS112, AMT); only the rest is public.
  return range === 'unicast' ? ALLOWED : { blocked: true, range };
}

function classifyV6(address: ipaddr.IPv6): AddressVerdict {
  const parts = address.parts;
  const word = (index: number): number => parts[index] ?? 0;
  const range = address.range();
  const embedded = (high: number, low: number, label: string): AddressVerdict => {
    const inner = classifyV4(new ipaddr.IPv4([high >> 8, high & 0xff, low >> 8, low & 0xff]));
    return inner.blocked ? { blocked: true, range: `${label}:${inner.range}` } : ALLOWED;
  };
  switch (range) {
    case 'ipv4Mapped':
    case 'rfc6145':
      return embedded(word(6), word(7), range);
    case 'rfc6052':
      // 64:ff9b::/96 embeds an IPv4 address; 64:ff9b:1::/48 is local-use NAT64 and never public.
      return word(2) === 0 ? embedded(word(6), word(7), 'nat64') : { blocked: true, range: 'nat64-local' };
    case '6to4':
      return embedded(word(1), word(2), '6to4');
    case 'teredo':
      // The Teredo client address is stored bit-inverted in the last 32 bits.
      return embedded(~word(6) & 0xffff, ~word(7) & 0xffff, 'teredo');
    default:
      break;
  }
  const firstSixZero = parts.slice(0, 6).every((part) => part === 0);
  // Deprecated IPv4-compatible form ::a.b.c.d (:: and ::1 were classified above as unspecified/loopback).
  if (firstSixZero && range !== 'unspecified' && range !== 'loopback') {
    return embedded(word(6), word(7), 'ipv4Compatible');
  }
  if (range !== 'unicast') return { blocked: true, range };
  // Only 2000::/3 is global unicast; everything else (including unassigned space) is refused.
  return (word(0) & 0xe000) === 0x2000 ? ALLOWED : { blocked: true, range: 'non-global' };
}

/** A compiled list of addresses or CIDR ranges that the guard trusts although they are private. */
export interface AddressTrust {
  /** True when `address` matches an entry. */
  trusts(address: string): boolean;
  readonly empty: boolean;
}

/** Compiles `entries` (`127.0.0.1`, `10.0.0.0/8`, `::1`); an invalid entry throws INVALID_INPUT-worthy TypeError. */
export function createAddressTrust(entries: readonly string[] = []): AddressTrust {
  const ranges = entries.map((entry) => {
    const cidr = entry.includes('/') ? entry : `${entry}/${ipaddr.parse(entry).kind() === 'ipv4' ? 32 : 128}`;
    return ipaddr.parseCIDR(cidr);
  });
  return {
    empty: ranges.length === 0,
    trusts(address) {
      if (ranges.length === 0) return false;
      let parsed: ipaddr.IPv4 | ipaddr.IPv6;
      try {
        parsed = ipaddr.process(address.replace(/^\[|\]$/g, ''));
      } catch {
        return false;
      }
      return ranges.some(([base, bits]) => base.kind() === parsed.kind() && parsed.match(base, bits));
    },
  };
}
