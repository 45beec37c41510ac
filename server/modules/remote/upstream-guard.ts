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
 * Whether an upstream address may be fetched. Only public unicast addresses are, unless an
 * admin allowed the address: link-local (cloud metadata at 169.254.169.254), loopback and
 * private ranges would let a repository URL reach inside the network Depot runs in.
 */
export function isAllowedAddress(text: string, allowList: string[]): boolean {
  let address = ipaddr.parse(text);
  if (address.kind() === 'ipv6' && (address as ipaddr.IPv6).isIPv4MappedAddress()) {
    address = (address as ipaddr.IPv6).toIPv4Address();
  }
  return address.range() === 'unicast' || allowed(address, allowList);
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
