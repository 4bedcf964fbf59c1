import { BlockList, isIP } from 'node:net';

/**
 * Which addresses a webhook may reach. A trader chooses the URL, so the server must not become their
 * proxy into its own network: loopback, private and link-local ranges (the cloud metadata service at
 * 169.254.169.254 among them), and the special ranges that are never a public web server.
 *
 * IPv4 is a deny list. IPv6 is an allow list (global unicast, 2000::/3) with deny holes, as everything
 * outside 2000::/3 is local, multicast or reserved; the forms that carry an IPv4 address inside
 * (mapped, compatible, translated, NAT64, 6to4) are judged by that IPv4 address, since that is where the
 * packets end up.
 */

const V4_REFUSED = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8], // "this network"; 0.0.0.0 itself reaches the local host
  ['10.0.0.0', 8], // private
  ['100.64.0.0', 10], // carrier-grade NAT, the provider's side of the network
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local, with the cloud metadata service
  ['172.16.0.0', 12], // private
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.0.2.0', 24], // documentation
  ['192.88.99.0', 24], // 6to4 relay anycast, a relay into other networks
  ['192.168.0.0', 16], // private
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24], // documentation
  ['203.0.113.0', 24], // documentation
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, with broadcast 255.255.255.255
] as const) {
  V4_REFUSED.addSubnet(net, prefix, 'ipv4');
}

const V6_GLOBAL = new BlockList();
V6_GLOBAL.addSubnet('2000::', 3, 'ipv6');

const V6_REFUSED = new BlockList();
for (const [net, prefix] of [
  ['2001::', 23], // IETF protocol assignments, with Teredo, whose embedded client address is obfuscated
  ['2001:db8::', 32], // documentation
  ['3fff::', 20], // documentation
] as const) {
  V6_REFUSED.addSubnet(net, prefix, 'ipv6');
}

/** True when `ip` (an IPv4 or IPv6 address, as a resolver returns it) is a public unicast address a webhook may reach. */
export function isPublicAddress(ip: string): boolean {
  const family = isIP(ip);
  if (family === 4) return !V4_REFUSED.check(ip, 'ipv4');
  // A zone index ("fe80::1%eth0") only exists on link-local addresses.
  if (family !== 6 || ip.includes('%')) return false;
  const bytes = ipv6Bytes(ip);
  const inner = embeddedIpv4(bytes);
  if (inner !== undefined) return isPublicAddress(inner);
  return V6_GLOBAL.check(ip, 'ipv6') && !V6_REFUSED.check(ip, 'ipv6');
}

/** The IPv4 address an IPv6 address stands for, if it is one of the forms that carry one. */
function embeddedIpv4(b: Uint8Array): string | undefined {
  const zeros = (from: number, to: number) => b.subarray(from, to).every((x) => x === 0);
  const v4 = (at: number) => `${b[at]}.${b[at + 1]}.${b[at + 2]}.${b[at + 3]}`;
  // ::a.b.c.d (compatible, also :: and ::1), ::ffff:a.b.c.d (mapped), ::ffff:0:a.b.c.d (translated).
  if (zeros(0, 10) && ((b[10] === 0 && b[11] === 0) || (b[10] === 0xff && b[11] === 0xff))) return v4(12);
  if (zeros(0, 8) && b[8] === 0xff && b[9] === 0xff && b[10] === 0 && b[11] === 0) return v4(12);
  // 64:ff9b::/96, the well-known NAT64 prefix: a translator forwards to the IPv4 address in the last 32 bits.
  if (b[0] === 0 && b[1] === 0x64 && b[2] === 0xff && b[3] === 0x9b && zeros(4, 12)) return v4(12);
  // 2002::/16, 6to4: the relay tunnels to the IPv4 address in bits 16 to 48.
  if (b[0] === 0x20 && b[1] === 0x02) return v4(2);
  return undefined;
}

/** The 16 bytes of an IPv6 address already validated by net.isIP (no zone index). */
function ipv6Bytes(ip: string): Uint8Array {
  let text = ip;
  const groups: number[] = [];
  // A dotted IPv4 tail ("::ffff:127.0.0.1") counts as the last two groups.
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  let tail: number[] = [];
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number) as [number, number, number, number];
    tail = [(a << 8) | b, (c << 8) | d];
    text = text.slice(0, dotted.index);
    if (text.endsWith(':') && !text.endsWith('::')) text = text.slice(0, -1);
  }
  const [head, rest] = text.split('::') as [string, string | undefined];
  const parse = (part: string | undefined) => (part ? part.split(':').map((g) => Number.parseInt(g, 16)) : []);
  const left = parse(head);
  const right = [...parse(rest), ...tail];
  groups.push(...left, ...new Array<number>(8 - left.length - right.length).fill(0), ...right);
  const bytes = new Uint8Array(16);
  groups.forEach((g, i) => {
    bytes[i * 2] = g >> 8;
    bytes[i * 2 + 1] = g & 0xff;
  });
  return bytes;
}
