import { lookup } from "node:dns/promises";
import { BlockList, isIP } from "node:net";

/** Loopback, private, link-local, carrier-grade NAT and unspecified addresses: the server's neighbours. */
const privateNetworks = new BlockList();
for (const [net, prefix] of [
  ["127.0.0.0", 8],
  ["10.0.0.0", 8],
  ["172.16.0.0", 12],
  ["192.168.0.0", 16],
  ["169.254.0.0", 16],
  ["0.0.0.0", 8],
  ["100.64.0.0", 10],
] as const) {
  privateNetworks.addSubnet(net, prefix, "ipv4");
}
for (const [net, prefix] of [
  ["::1", 128],
  ["fc00::", 7],
  ["fe80::", 10],
  ["::", 128],
] as const)
  privateNetworks.addSubnet(net, prefix, "ipv6");

/** Whether an IP address is on a private network (an IPv4 address mapped in IPv6 is read as IPv4). */
export function isPrivateAddress(address: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1];
  if (mapped) return privateNetworks.check(mapped, "ipv4");
  const family = isIP(address);
  return family !== 0 && privateNetworks.check(address, family === 6 ? "ipv6" : "ipv4");
}

/**
 * Where a host name leads: "private" when any of its addresses is on a private network (a name may
 * have several, and a client may use any), "public" otherwise, "unresolved" when it has none.
 */
export async function hostReach(hostname: string): Promise<"private" | "public" | "unresolved"> {
  const host = hostname.replace(/^\[|\]$/g, "");
  const addresses = isIP(host)
    ? [host]
    : await lookup(host, { all: true }).then(
        (found) => found.map((a) => a.address),
        () => [],
      );
  if (addresses.length === 0) return "unresolved";
  return addresses.some(isPrivateAddress) ? "private" : "public";
}
