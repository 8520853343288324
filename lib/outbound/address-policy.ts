import { BlockList, isIP } from 'node:net';

// The outbound policy's rule on addresses (CONTRACT.md "Operations, lifetimes and locales",
// "Outbound policy"; docs/security.md "Outbound requests"): an address a tenant can aim the server
// at (a login provider's Authority, an LDAP URL, a client's metadata document) may be any public
// address, but no loopback, private, link-local, CGNAT, cloud-metadata or other special-use address,
// unless the operator lists it, its range or the host name in GATEHOUSE_OUTBOUND_ALLOW. Pure: the
// sockets that apply it are in guarded-socket.ts.

// IANA's IPv4 special-purpose registry (RFC 6890 and successors), plus multicast and the reserved
// 240/4. 169.254.169.254 (AWS, GCP, Azure metadata) is link-local, 100.100.100.200 (Alibaba) CGNAT.
const SPECIAL_USE_IPV4: readonly [string, number][] = [
  ['0.0.0.0', 8], // "this network"
  ['10.0.0.0', 8], // private
  ['100.64.0.0', 10], // CGNAT
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local, cloud metadata
  ['172.16.0.0', 12], // private
  ['192.0.0.0', 24], // IETF protocol assignments (Oracle's metadata 192.0.0.192)
  ['192.0.2.0', 24], // documentation
  ['192.31.196.0', 24], // AS112
  ['192.52.193.0', 24], // AMT
  ['192.88.99.0', 24], // 6to4 relay anycast
  ['192.168.0.0', 16], // private
  ['192.175.48.0', 24], // AS112
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24], // documentation
  ['203.0.113.0', 24], // documentation
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast
];

// IPv6: only global unicast (2000::/3) is reachable on the internet, which leaves out loopback, the
// unspecified address, IPv4-compatible and -translated forms, NAT64 (64:ff9b::/96, which reaches
// an IPv4 address of the gateway's choosing), unique-local (fc00::/7, AWS metadata fd00:ec2::254),
// link-local, site-local and multicast. Inside 2000::/3: IETF assignments (Teredo among them), 6to4
// (both embed an IPv4 address) and documentation.
const GLOBAL_UNICAST_IPV6 = new BlockList();
GLOBAL_UNICAST_IPV6.addSubnet('2000::', 3, 'ipv6');
const SPECIAL_USE_IPV6: readonly [string, number][] = [
  ['2001::', 23],
  ['2001:db8::', 32],
  ['2002::', 16],
  ['3fff::', 20],
];

const SPECIAL_USE = new BlockList();
for (const [prefix, bits] of SPECIAL_USE_IPV4) SPECIAL_USE.addSubnet(prefix, bits, 'ipv4');
for (const [prefix, bits] of SPECIAL_USE_IPV6) SPECIAL_USE.addSubnet(prefix, bits, 'ipv6');

export type IpAddress = { family: 'ipv4' | 'ipv6'; address: string };

/** The eight 16-bit groups of a valid IPv6 address (node:net's isIP said so), without a zone. */
function ipv6Groups(address: string): number[] {
  let text = address;
  const tail: number[] = [];
  const dotted = /:(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted[1].split('.').map(Number);
    tail.push((a << 8) | b, (c << 8) | d);
    text = text.slice(0, dotted.index + 1);
    if (!text.endsWith('::')) text = text.slice(0, -1);
  }
  const parse = (s: string) => (s ? s.split(':').map((g) => parseInt(g, 16)) : []);
  const double = text.indexOf('::');
  if (double === -1) return [...parse(text), ...tail];
  const left = parse(text.slice(0, double));
  const right = parse(text.slice(double + 2));
  return [...left, ...new Array<number>(8 - left.length - right.length - tail.length).fill(0), ...right, ...tail];
}

/**
 * An IP address as a URL host or a resolver writes it, in one canonical form: brackets and an IPv6
 * zone removed, the odd IPv4 spellings the URL standard accepts (`0x7f.1`, `2130706433`, `0177.1`)
 * read as the address they name, and an IPv4-mapped IPv6 address (`::ffff:127.0.0.1`,
 * `::ffff:7f00:1`) as its IPv4 address, which is where a dual-stack socket connects. Undefined when
 * `host` is a name, not an address.
 */
export function canonicalAddress(host: string): IpAddress | undefined {
  let text = host.trim().toLowerCase();
  if (text.startsWith('[') && text.endsWith(']')) text = text.slice(1, -1);
  text = text.replace(/%.*$/, '');
  if (isIP(text) === 4) return { family: 'ipv4', address: text };
  if (isIP(text) === 6) {
    const g = ipv6Groups(text);
    if (g.slice(0, 5).every((x) => x === 0) && g[5] === 0xffff) {
      return { family: 'ipv4', address: [g[6] >> 8, g[6] & 0xff, g[7] >> 8, g[7] & 0xff].join('.') };
    }
    return { family: 'ipv6', address: g.map((x) => x.toString(16)).join(':') };
  }
  // The URL standard's IPv4 parser (WHATWG URL 3.5): what `fetch` would connect to for this host.
  if (/^[0-9a-fx.]+$/.test(text) && URL.canParse(`http://${text}/`)) {
    const parsed = new URL(`http://${text}/`).hostname;
    if (isIP(parsed) === 4) return { family: 'ipv4', address: parsed };
  }
  return undefined;
}

/** A loopback, private, link-local, CGNAT, metadata, documentation, multicast or otherwise non-public address. */
export function isSpecialUse(ip: IpAddress): boolean {
  if (ip.family === 'ipv6' && !GLOBAL_UNICAST_IPV6.check(ip.address, 'ipv6')) return true;
  return SPECIAL_USE.check(ip.address, ip.family);
}

/** The operator's GATEHOUSE_OUTBOUND_ALLOW: host names, `*.`-suffixes, addresses and CIDR ranges. */
export type AllowList = {
  readonly names: ReadonlySet<string>;
  /** `.example.org` for the entry `*.example.org`: subdomains only. */
  readonly suffixes: readonly string[];
  readonly addresses: BlockList;
  /** The entries as written, for messages. */
  readonly entries: readonly string[];
};

const HOST_NAME = /^(?=.{1,253}$)[a-z0-9_]([a-z0-9_-]{0,61}[a-z0-9_])?(\.[a-z0-9_]([a-z0-9_-]{0,61}[a-z0-9_])?)*$/;

/** A host name as compared: lower case, without the root's trailing dot. */
function nameOf(host: string): string {
  return host.trim().toLowerCase().replace(/\.$/, '');
}

/** Parses GATEHOUSE_OUTBOUND_ALLOW; throws an Error naming the first entry it cannot read. */
export function parseAllowList(text: string): AllowList {
  const names = new Set<string>();
  const suffixes: string[] = [];
  const addresses = new BlockList();
  const entries = text
    .split(',')
    .map((e) => e.trim())
    .filter(Boolean);
  for (const entry of entries) {
    const slash = entry.indexOf('/');
    if (slash !== -1) {
      const ip = canonicalAddress(entry.slice(0, slash));
      const bitsText = entry.slice(slash + 1);
      const bits = Number(bitsText);
      // A mapped IPv6 range is kept as the IPv4 range it covers, as its addresses are (canonicalAddress).
      const mapped = ip?.family === 'ipv4' && entry.includes(':');
      const prefix = mapped ? bits - 96 : bits;
      const max = ip?.family === 'ipv4' ? 32 : 128;
      if (!ip || !/^\d{1,3}$/.test(bitsText) || prefix < 0 || prefix > max) throw new Error(`"${entry}" is not an address range (10.0.0.0/8, fd00::/8)`);
      addresses.addSubnet(ip.address, prefix, ip.family);
      continue;
    }
    const ip = canonicalAddress(entry);
    if (ip) {
      addresses.addAddress(ip.address, ip.family);
      continue;
    }
    const name = nameOf(entry);
    if (name.startsWith('*.') && HOST_NAME.test(name.slice(2))) suffixes.push(name.slice(1));
    else if (HOST_NAME.test(name)) names.add(name);
    else throw new Error(`"${entry}" is not a host name, *.domain, address or address range`);
  }
  return { names, suffixes, addresses, entries };
}

export const EMPTY_ALLOW_LIST: AllowList = parseAllowList('');

/** The operator lists this host: by name, by `*.` suffix, or (an address literal) by address or range. */
export function hostListed(allow: AllowList, host: string): boolean {
  const ip = canonicalAddress(host);
  if (ip) return allow.addresses.check(ip.address, ip.family);
  const name = nameOf(host);
  return allow.names.has(name) || allow.suffixes.some((suffix) => name.endsWith(suffix));
}

/**
 * Whether a connection to `address`, reached for `host` (the name the URL gave, or the same address),
 * is allowed: a public address always; any other when the operator lists the host or the address.
 */
export function addressPermitted(allow: AllowList, host: string, address: string): boolean {
  const ip = canonicalAddress(address);
  if (!ip) return false;
  if (!isSpecialUse(ip)) return true;
  return allow.addresses.check(ip.address, ip.family) || (canonicalAddress(host) === undefined && hostListed(allow, host));
}
