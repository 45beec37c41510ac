import { describe, expect, it } from 'vitest';
import { isAllowedAddress } from './upstream-guard.ts';

/** Addresses as a URL's host or a DNS answer gives them (the URL parser writes IPv6 in hex). */
const judge = (address: string, allowList: string[] = []) => isAllowedAddress(address, allowList);

describe('the upstream address guard', () => {
  it.each([
    ['::7f00:1', 'IPv4-compatible loopback (::127.0.0.1)'],
    ['::a9fe:a9fe', 'IPv4-compatible cloud metadata (::169.254.169.254)'],
    ['::a00:1', 'IPv4-compatible private (::10.0.0.1)'],
    ['::ffff:7f00:1', 'IPv4-mapped loopback'],
    ['::ffff:c0a8:101', 'IPv4-mapped private (::ffff:192.168.1.1)'],
    ['::ffff:0:7f00:1', 'SIIT loopback (::ffff:0:127.0.0.1)'],
    ['64:ff9b::7f00:1', 'NAT64 of loopback'],
    ['64:ff9b::a9fe:a9fe', 'NAT64 of cloud metadata'],
    ['64:ff9b:1::a00:1', "NAT64's local-use prefix"],
    ['2002:7f00:1::1', '6to4 of loopback'],
    ['2002:808:808::1', '6to4 of a public address (relayed)'],
    ['2001:0:4136:e378:8000:63bf:3fff:fdd2', 'Teredo'],
    ['::1', 'IPv6 loopback'],
    ['::', 'unspecified'],
    ['::2', 'IPv4-compatible 0.0.0.2'],
    ['fe80::1', 'link-local'],
    ['fc00::1', 'unique local'],
    ['127.0.0.1', 'IPv4 loopback'],
  ])('refuses %s (%s)', (address) => {
    expect(judge(address)).toBe(false);
  });

  it.each([
    ['8.8.8.8', 'public IPv4'],
    ['2606:4700::1111', 'public IPv6'],
    ['::ffff:808:808', 'IPv4-mapped public address'],
    ['64:ff9b::808:808', 'NAT64 of a public address (DNS64 networks)'],
  ])('lets %s through (%s)', (address) => {
    expect(judge(address)).toBe(true);
  });

  it('judges an embedded IPv4 address by the allow list as the plain address would be', () => {
    const loopback = ['127.0.0.0/8'];
    for (const address of ['127.0.0.1', '::7f00:1', '::ffff:7f00:1', '64:ff9b::7f00:1'])
      expect(judge(address, loopback)).toBe(true);
    expect(judge('::a00:1', loopback)).toBe(false);
  });

  it('lets an admin allow any IPv6 range by itself', () => {
    expect(judge('2002:7f00:1::1', ['2002::/16'])).toBe(true);
    expect(judge('fc00::1', ['fc00::1'])).toBe(true);
  });
});
