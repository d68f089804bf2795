import { isIPv4, isIPv6 } from 'node:net';

/**
 * What kind of network an IP address belongs to, for the webhook target rule in production
 * (see webhook-target.ts): only `public` addresses may receive deliveries.
 */
export type AddressClass =
  | 'public'
  | 'loopback'
  | 'private'
  | 'link-local'
  /** Cloud instance metadata endpoints (AWS/GCP/Azure 169.254.169.254, AWS IPv6 fd00:ec2::254). */
  | 'metadata'
  | 'unspecified'
  | 'carrier-grade-nat'
  | 'multicast'
  | 'broadcast'
  /** Documentation, benchmarking, "this network", future use, unassigned IPv6: never a real receiver. */
  | 'reserved'
  | 'not-an-ip';

type V4Range = readonly [base: string, prefix: number, cls: AddressClass];

// First match wins: the metadata address sits inside link-local, so it comes first.
const V4_RANGES: readonly V4Range[] = [
  ['169.254.169.254', 32, 'metadata'],
  ['0.0.0.0', 32, 'unspecified'],
  ['255.255.255.255', 32, 'broadcast'],
  ['0.0.0.0', 8, 'reserved'],
  ['10.0.0.0', 8, 'private'],
  ['100.64.0.0', 10, 'carrier-grade-nat'],
  ['127.0.0.0', 8, 'loopback'],
  ['169.254.0.0', 16, 'link-local'],
  ['172.16.0.0', 12, 'private'],
  ['192.0.0.0', 24, 'reserved'],
  ['192.0.2.0', 24, 'reserved'],
  ['192.168.0.0', 16, 'private'],
  ['198.18.0.0', 15, 'reserved'],
  ['198.51.100.0', 24, 'reserved'],
  ['203.0.113.0', 24, 'reserved'],
  ['224.0.0.0', 4, 'multicast'],
  ['240.0.0.0', 4, 'reserved'],
];

/**
 * Classifies an IPv4 or IPv6 address as written by Node (the URL parser's normalised host, or a
 * dns.lookup answer; IPv6 without brackets). IPv4 embedded in IPv6 (mapped ::ffff:a.b.c.d, NAT64
 * 64:ff9b::/96, 6to4 2002::/16) is classified by its IPv4 address, since that is where a
 * connection would end up. Pure: no DNS, no I/O.
 */
export function classifyAddress(address: string): AddressClass {
  const bare = address.replace(/^\[(.*)\]$/, '$1').toLowerCase();
  if (isIPv4(bare)) return classifyV4(v4Number(bare));
  if (isIPv6(bare)) return classifyV6(v6Groups(bare));
  return 'not-an-ip';
}

function classifyV4(value: number): AddressClass {
  for (const [base, prefix, cls] of V4_RANGES) {
    const mask = prefix === 0 ? 0 : (0xffffffff << (32 - prefix)) >>> 0;
    if ((value & mask) >>> 0 === v4Number(base)) return cls;
  }
  return 'public';
}

function classifyV6(g: readonly number[]): AddressClass {
  const zeroUpTo = (n: number) => g.slice(0, n).every((x) => x === 0);
  const embeddedV4 = (hi: number, lo: number) => ((g[hi] << 16) | g[lo]) >>> 0;
  if (zeroUpTo(8)) return 'unspecified';
  if (zeroUpTo(7) && g[7] === 1) return 'loopback';
  if (zeroUpTo(5) && g[5] === 0xffff) return classifyV4(embeddedV4(6, 7));
  // IPv4-compatible (::a.b.c.d, deprecated by RFC 4291): not routed, but some stacks map it to IPv4.
  if (zeroUpTo(6)) return 'reserved';
  if (g[0] === 0x64 && g[1] === 0xff9b && g.slice(2, 6).every((x) => x === 0)) return classifyV4(embeddedV4(6, 7));
  if (g[0] === 0x2002) return classifyV4(embeddedV4(1, 2));
  if (g[0] === 0xfd00 && g[1] === 0x0ec2 && g.slice(2, 7).every((x) => x === 0) && g[7] === 0x254) return 'metadata';
  if ((g[0] & 0xfe00) === 0xfc00) return 'private';
  // fec0::/10, site-local: deprecated (RFC 3879) but still the local network where it is used.
  if ((g[0] & 0xffc0) === 0xfec0) return 'private';
  if ((g[0] & 0xffc0) === 0xfe80) return 'link-local';
  if ((g[0] & 0xff00) === 0xff00) return 'multicast';
  if (g[0] === 0x2001 && g[1] === 0x0db8) return 'reserved';
  // Global unicast is 2000::/3; everything else left is unassigned or special-purpose.
  if ((g[0] & 0xe000) !== 0x2000) return 'reserved';
  return 'public';
}

function v4Number(address: string): number {
  return address.split('.').reduce((acc, part) => ((acc << 8) | Number(part)) >>> 0, 0);
}

/** Eight 16-bit groups of a valid IPv6 address (`::` expanded, a dotted IPv4 tail split in two). */
function v6Groups(address: string): number[] {
  let text = address.replace(/%.*$/, ''); // a zone id (fe80::1%eth0) names an interface, not an address
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    const v4 = v4Number(dotted[1]);
    text = `${text.slice(0, dotted.index)}${(v4 >>> 16).toString(16)}:${(v4 & 0xffff).toString(16)}`;
  }
  const [head, tail] = text.includes('::') ? text.split('::') : [text, undefined];
  const parse = (part: string) => (part === '' ? [] : part.split(':').map((h) => parseInt(h, 16)));
  const left = parse(head);
  if (tail === undefined) return left;
  const right = parse(tail);
  return [...left, ...new Array<number>(8 - left.length - right.length).fill(0), ...right];
}
