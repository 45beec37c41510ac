import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from 'node:dns';
import ipaddr from 'ipaddr.js';

export class BlockedAddress extends Error {}

type LookupCallback = (
  error: NodeJS.ErrnoException | null,
  address: string | LookupAddress[],
  family?: number,
) => void;

/** True when an admin's allow list (IPs or CIDRs) names this address. */
function allowed(address: ipaddr.IPv4 | ipaddr.IPv6, allowList: string[]): boolean {
  return allowList.some((entry) => {
    try {
      const [range, bits] = entry.includes('/')
        ? ipaddr.parseCIDR(entry)
        : [ipaddr.parse(entry), entry.includes(':') ? 128 : 32];
      return address.kind() === range.kind() && address.match(range, bits);
    } catch {
      return false;
    }
  });
}

/**
 * The IPv4 address an IPv6 address carries and reaches, for the forms where the packet goes
 * to that IPv4 host: IPv4-compatible (`::a.b.c.d`, deprecated but still routed by some
 * stacks), IPv4-mapped (`::ffff:a.b.c.d`), SIIT (`::ffff:0:a.b.c.d`) and the well-known
 * NAT64 prefix (`64:ff9b::a.b.c.d`). `::` and `::1` are not among them: they are judged as
 * IPv6 (unspecified, loopback).
 */
function embeddedIPv4(address: ipaddr.IPv6): ipaddr.IPv4 | undefined {
  const p = address.parts;
  const zeroUpTo = (end: number) => p.slice(0, end).every((part) => part === 0);
  const compatible = zeroUpTo(6) && (p[6] !== 0 || p[7] > 1);
  const mapped = zeroUpTo(5) && p[5] === 0xffff;
  const siit = zeroUpTo(4) && p[4] === 0xffff && p[5] === 0;
  const nat64 = p[0] === 0x64 && p[1] === 0xff9b && p.slice(2, 6).every((part) => part === 0);
  if (!compatible && !mapped && !siit && !nat64) return undefined;
  return ipaddr.fromByteArray(address.toByteArray().slice(12)) as ipaddr.IPv4;
}

/**
 * Whether an upstream address may be fetched. Only public unicast addresses are, unless an
 * admin allowed the address: link-local (cloud metadata at 169.254.169.254), loopback and
 * private ranges would let a repository URL reach inside the network Depot runs in. An IPv6
 * form that carries an IPv4 address is judged by that IPv4 address; the other transition
 * forms (6to4, Teredo, NAT64's local-use prefix) and every reserved range are refused
 * unless allowed, since where they lead depends on relays Depot cannot see.
 */
export function isAllowedAddress(text: string, allowList: string[]): boolean {
  const address = ipaddr.parse(text);
  if (allowed(address, allowList)) return true;
  const carried = address.kind() === 'ipv6' ? embeddedIPv4(address as ipaddr.IPv6) : undefined;
  if (carried) return carried.range() === 'unicast' || allowed(carried, allowList);
  return address.range() === 'unicast';
}

/**
 * A `lookup` for http.request that checks every address the name resolves to at connect
 * time, so a DNS answer that changes between a check and the connection (rebinding), or a
 * redirect to another host, cannot slip past.
 */
export function guardedLookup(allowList: string[]) {
  return (hostname: string, options: LookupOptions, callback: LookupCallback) => {
    dnsLookup(hostname, { ...options, all: true }, (error, addresses: LookupAddress[]) => {
      if (error) return callback(error, []);
      const blocked = addresses.find((a) => !isAllowedAddress(a.address, allowList));
      if (blocked) {
        return callback(
          new BlockedAddress(
            `The upstream address ${blocked.address} (${hostname}) is private or reserved; an admin can allow it in the security settings`,
          ),
          [],
        );
      }
      if (options.all) return callback(null, addresses);
      return callback(null, addresses[0].address, addresses[0].family);
    });
  };
}
