import { describe, expect, it } from 'vitest';
import { classifyAddress, createAddressTrust } from './ip-ranges.ts';

describe('classifyAddress', () => {
  it.each([
    ['8.8.8.8', false],
    ['93.184.216.34', false],
    ['100.63.255.255', false],
    ['100.128.0.0', false],
    ['172.15.255.255', false],
    ['172.32.0.0', false],
    ['192.169.0.1', false],
    ['198.17.255.255', false],
    ['198.20.0.0', false],
    ['223.255.255.255', false],
    ['2606:4700:4700::1111', false],
    ['2a00:1450:4001::200e', false],
    ['::ffff:8.8.8.8', false],
    ['64:ff9b::808:808', false],
    ['2002:808:808::1', false],
    // Teredo whose client (bit-inverted last 32 bits) is 8.8.8.8.
    ['2001:0:4136:e378:8000:63bf:f7f7:f7f7', false],
    ['0.0.0.0', true],
    ['0.255.255.255', true],
    ['10.0.0.0', true],
    ['100.64.0.0', true],
    ['100.127.255.255', true],
    ['127.0.0.1', true],
    ['127.255.255.254', true],
    ['169.254.0.1', true],
    ['172.16.0.0', true],
    ['172.31.255.255', true],
    ['192.0.0.1', true],
    ['192.0.2.255', true],
    ['192.168.255.255', true],
    ['198.18.0.0', true],
    ['198.19.255.255', true],
    ['198.51.100.1', true],
    ['203.0.113.1', true],
    ['224.0.0.251', true],
    ['239.255.255.250', true],
    ['240.0.0.1', true],
    ['255.255.255.255', true],
    ['::', true],
    ['::1', true],
    ['fe80::1', true],
    ['fe80::1%eth0', true],
    ['fc00::1', true],
    ['fdff:ffff::1', true],
    ['fec0::1', true],
    ['ff02::1', true],
    ['2001:db8::1', true],
    ['100::1', true],
    ['::ffff:127.0.0.1', true],
    ['::ffff:0:127.0.0.1', true],
    ['::127.0.0.1', true],
    ['::10.0.0.1', true],
    ['64:ff9b::127.0.0.1', true],
    ['64:ff9b:1::8.8.8.8', true],
    ['2002:7f00:1::', true],
    ['2002:a9fe:a9fe::', true],
    ['2001:0:4136:e378:8000:63bf:80ff:fffe', true],
    ['4000::1', true],
    ['not-an-ip', true],
    ['[::1]', true],
  ])('%s blocked=%s', (address, blocked) => {
    expect(classifyAddress(address).blocked).toBe(blocked);
  });

  it('names the embedded range for IPv6 forms that carry an IPv4 address', () => {
    expect(classifyAddress('::ffff:169.254.169.254')).toEqual({
      blocked: true,
      range: 'ipv4Mapped:linkLocal',
    });
    expect(classifyAddress('64:ff9b::a00:1')).toEqual({ blocked: true, range: 'nat64:private' });
  });
});

describe('createAddressTrust', () => {
  it.each([
    [['127.0.0.1'], '127.0.0.1', true],
    [['127.0.0.1'], '127.0.0.2', false],
    [['10.0.0.0/8'], '10.9.8.7', true],
    [['10.0.0.0/8'], '11.0.0.1', false],
    [['::1'], '::1', true],
    [['::1'], '127.0.0.1', false],
    [['127.0.0.1'], '::ffff:127.0.0.1', true],
    [[], '127.0.0.1', false],
  ] as const)('%j trusts %s: %s', (entries, address, trusted) => {
    expect(createAddressTrust(entries).trusts(address)).toBe(trusted);
  });
});
