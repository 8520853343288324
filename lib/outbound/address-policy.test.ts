import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { addressPermitted, canonicalAddress, EMPTY_ALLOW_LIST, hostListed, isSpecialUse, parseAllowList } from './address-policy';

// The outbound policy's address rule (CONTRACT.md "Outbound policy", docs/security.md "Outbound
// requests"): every address of a refused range is refused, however it is written, unless the
// operator lists it; public addresses pass.

const octet = fc.integer({ min: 0, max: 255 });
const v4 = (a: number, b: number, c: number, d: number) => `${a}.${b}.${c}.${d}`;
const hex = (n: number) => n.toString(16);

/** An address of a refused IPv4 range: [first octet, second octet range] pairs cover the tables' ranges. */
const refusedV4 = fc.oneof(
  fc.tuple(fc.constantFrom(0, 10, 127), octet, octet, octet).map(([a, b, c, d]) => v4(a, b, c, d)),
  fc.tuple(fc.integer({ min: 64, max: 127 }), octet, octet).map(([b, c, d]) => v4(100, b, c, d)),
  fc.tuple(octet, octet).map(([c, d]) => v4(169, 254, c, d)),
  fc.tuple(fc.integer({ min: 16, max: 31 }), octet, octet).map(([b, c, d]) => v4(172, b, c, d)),
  fc.tuple(octet, octet).map(([c, d]) => v4(192, 168, c, d)),
  fc.tuple(fc.constantFrom('192.0.0', '192.0.2', '198.51.100', '203.0.113'), octet).map(([p, d]) => `${p}.${d}`),
  fc.tuple(fc.integer({ min: 18, max: 19 }), octet, octet).map(([b, c, d]) => v4(198, b, c, d)),
  fc.tuple(fc.integer({ min: 224, max: 255 }), octet, octet, octet).map(([a, b, c, d]) => v4(a, b, c, d)),
);

/** Public IPv4: first octets that hold no special-use range at all. */
const publicV4 = fc
  .tuple(fc.constantFrom(1, 8, 9, 11, 23, 45, 99, 126, 128, 151, 185, 199, 208, 223), octet, octet, octet)
  .map(([a, b, c, d]) => v4(a, b, c, d));

const group = fc.integer({ min: 0, max: 0xffff });
/** An IPv6 address outside global unicast (loopback, ULA, link-local, multicast, NAT64, ...). */
const refusedV6 = fc.oneof(
  fc.constant('::1'),
  fc.constant('::'),
  fc.tuple(fc.integer({ min: 0xfc00, max: 0xfdff }), group, group).map(([a, b, c]) => `${hex(a)}:${hex(b)}::${hex(c)}`),
  fc.tuple(fc.integer({ min: 0xfe80, max: 0xfebf }), group).map(([a, b]) => `${hex(a)}::${hex(b)}`),
  fc.tuple(fc.integer({ min: 0xff00, max: 0xffff }), group).map(([a, b]) => `${hex(a)}::${hex(b)}`),
  fc.tuple(group, group).map(([a, b]) => `64:ff9b::${hex(a)}:${hex(b)}`),
  fc.tuple(group, group).map(([a, b]) => `2001:db8:${hex(a)}::${hex(b)}`),
  fc.tuple(group, group).map(([a, b]) => `2002:${hex(a)}::${hex(b)}`),
);

/** The same IPv4 address as the URL standard, a dual-stack socket or an attacker may write it. */
function spellings(ip: string): string[] {
  const [a, b, c, d] = ip.split('.').map(Number);
  const n = ((a << 24) | (b << 16) | (c << 8) | d) >>> 0;
  return [
    ip,
    String(n),
    `0x${hex(n)}`,
    `${a}.${(b << 16) | (c << 8) | d}`,
    `0x${hex(a)}.${(b << 16) | (c << 8) | d}`,
    `0${a.toString(8)}.${b}.${c}.${d}`,
    `[::ffff:${ip}]`,
    `::ffff:${ip}`,
    `[::ffff:${hex((a << 8) | b)}:${hex((c << 8) | d)}]`,
    `0:0:0:0:0:ffff:${ip}`,
  ];
}

describe('the special-use ranges', () => {
  it('refuse every address of every refused IPv4 range, however it is written', () => {
    fc.assert(
      fc.property(refusedV4, (ip) => {
        for (const spelled of spellings(ip)) {
          const canonical = canonicalAddress(spelled);
          expect(canonical, spelled).toEqual({ family: 'ipv4', address: ip });
          expect(addressPermitted(EMPTY_ALLOW_LIST, spelled, spelled), spelled).toBe(false);
        }
      }),
    );
  });

  it('refuse every IPv6 address outside global unicast and the special ranges inside it', () => {
    fc.assert(fc.property(refusedV6, (ip) => !addressPermitted(EMPTY_ALLOW_LIST, ip, ip) && !addressPermitted(EMPTY_ALLOW_LIST, ip, `[${ip}]`)));
  });

  it('let public addresses through, as IPv4, mapped IPv6, and global IPv6', () => {
    fc.assert(fc.property(publicV4, (ip) => spellings(ip).every((s) => addressPermitted(EMPTY_ALLOW_LIST, s, s))));
    for (const ip of ['2606:4700:4700::1111', '2a00:1450:4001:80b::200e', '2001:4860:4860::8888'])
      expect(addressPermitted(EMPTY_ALLOW_LIST, ip, ip), ip).toBe(true);
  });

  it('name the cloud metadata and the usual private addresses', () => {
    for (const ip of ['169.254.169.254', '100.100.100.200', '192.0.0.192', 'fd00:ec2::254', '127.255.255.254', '0.0.0.0', '172.31.255.255', 'fe80::1%eth0']) {
      expect(isSpecialUse(canonicalAddress(ip)!), ip).toBe(true);
    }
    for (const ip of ['172.32.0.1', '192.169.0.1', '100.128.0.1', '11.0.0.1']) expect(isSpecialUse(canonicalAddress(ip)!), ip).toBe(false);
  });

  it('reads host names as names, not addresses', () => {
    for (const host of ['example.com', 'localhost', 'cafe.be', 'beef', '127.0.0.1.nip.io', '0x7f.example'])
      expect(canonicalAddress(host), host).toBeUndefined();
  });
});

describe('GATEHOUSE_OUTBOUND_ALLOW', () => {
  const allow = parseAllowList(' 127.0.0.0/9, LocalHost. ,*.corp.example, 10.1.2.3, ::ffff:192.168.0.0/112, fd00::/8, [::1] ');

  it('opens exactly what it lists: addresses and ranges, whatever the spelling', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 127 }), octet, octet, (b, c, d) => spellings(v4(127, b, c, d)).every((s) => addressPermitted(allow, s, s))),
    );
    fc.assert(
      fc.property(fc.integer({ min: 128, max: 255 }), octet, octet, (b, c, d) => spellings(v4(127, b, c, d)).every((s) => !addressPermitted(allow, s, s))),
    );
    expect(addressPermitted(allow, 'x', '10.1.2.3')).toBe(true);
    expect(addressPermitted(allow, 'x', '10.1.2.4')).toBe(false);
    expect(addressPermitted(allow, 'x', '192.168.44.1')).toBe(true);
    expect(addressPermitted(allow, 'x', 'fd12::1')).toBe(true);
    expect(addressPermitted(allow, 'x', '0:0::1')).toBe(true);
    expect(addressPermitted(allow, 'x', 'fe80::1')).toBe(false);
  });

  it('opens a listed host name at whatever address it resolves to, and *.domain for subdomains only', () => {
    expect(addressPermitted(allow, 'localhost', '127.200.0.1')).toBe(true);
    expect(addressPermitted(allow, 'LOCALHOST.', '::1')).toBe(true);
    expect(addressPermitted(allow, 'idp.corp.example', '10.9.9.9')).toBe(true);
    expect(addressPermitted(allow, 'a.b.corp.example', '169.254.169.254')).toBe(true);
    expect(addressPermitted(allow, 'corp.example', '10.9.9.9')).toBe(false);
    expect(addressPermitted(allow, 'evilcorp.example', '10.9.9.9')).toBe(false);
    expect(addressPermitted(allow, 'other.example', '10.9.9.9')).toBe(false);
    // A name that is an address is judged as that address, never as a listed name.
    expect(hostListed(allow, '0x7f.1')).toBe(true);
    expect(hostListed(allow, '2143289345')).toBe(false); // 127.192.0.1
    expect(hostListed(allow, 'sub.localhost')).toBe(false);
  });

  it('lists nothing when unset', () => {
    expect(parseAllowList('').entries).toEqual([]);
    fc.assert(fc.property(refusedV4, (ip) => !hostListed(EMPTY_ALLOW_LIST, ip) && !addressPermitted(EMPTY_ALLOW_LIST, 'localhost', ip)));
  });

  it('refuses entries it cannot read, naming them', () => {
    for (const bad of ['10.0.0.0/33', '10.0.0.0/', '::/129', 'http://x', 'a b', '*.', '*', 'host/8', '1.2.3.4/-1', '-bad.example', '::ffff:1.2.3.4/95'])
      expect(() => parseAllowList(`localhost,${bad}`), bad).toThrow(bad);
  });
});
