import { describe, expect, it } from 'vitest';
import { KeytabFormatError, keytabFor, keytabPrincipals, parseKeytab } from './keytab';

// Keytabs built byte by byte after MIT's format page (keytab.ts); spnego.test.ts reads real ones
// written by kadmin.local.

function octets(s: string | Buffer): Buffer {
  const data = typeof s === 'string' ? Buffer.from(s) : s;
  const n = Buffer.alloc(2);
  n.writeUInt16BE(data.length);
  return Buffer.concat([n, data]);
}

function u16(v: number): Buffer {
  const b = Buffer.alloc(2);
  b.writeUInt16BE(v);
  return b;
}

function u32(v: number): Buffer {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(v);
  return b;
}

function entry(components: string[], realm: string, kvno: number, enctype = 18, kvno32?: number): Buffer {
  const body = Buffer.concat([
    u16(components.length),
    octets(realm),
    ...components.map(octets),
    u32(1),
    u32(1_700_000_000),
    Buffer.from([kvno & 0xff]),
    u16(enctype),
    octets(Buffer.alloc(32, 7)),
    ...(kvno32 === undefined ? [] : [u32(kvno32)]),
  ]);
  const size = Buffer.alloc(4);
  size.writeInt32BE(body.length);
  return Buffer.concat([size, body]);
}

function hole(n: number): Buffer {
  const size = Buffer.alloc(4);
  size.writeInt32BE(-n);
  return Buffer.concat([size, Buffer.alloc(n)]);
}

const HEADER = u16(0x0502);

describe('parseKeytab', () => {
  it('reads principals, key versions and types, skipping holes', () => {
    const keytab = Buffer.concat([
      HEADER,
      entry(['HTTP', 'app.corp.test'], 'CORP.TEST', 3),
      hole(20),
      entry(['HTTP', 'app.corp.test'], 'CORP.TEST', 4, 17, 300),
    ]);
    expect(parseKeytab(keytab).map(({ principal, kvno, enctype }) => ({ principal, kvno, enctype }))).toEqual([
      { principal: 'HTTP/app.corp.test@CORP.TEST', kvno: 3, enctype: 18 },
      { principal: 'HTTP/app.corp.test@CORP.TEST', kvno: 300, enctype: 17 },
    ]);
    expect(keytabPrincipals(keytab)).toEqual(['HTTP/app.corp.test@CORP.TEST']);
  });

  it('refuses what is not a 0x502 keytab, or is cut short', () => {
    expect(() => parseKeytab(Buffer.from('hello'))).toThrow(KeytabFormatError);
    expect(() => parseKeytab(Buffer.concat([u16(0x0501), entry(['a'], 'R', 1)]))).toThrow(KeytabFormatError);
    const whole = Buffer.concat([HEADER, entry(['HTTP', 'app'], 'R', 1)]);
    for (const cut of [whole.length - 1, whole.length - 30, 4]) expect(() => parseKeytab(whole.subarray(0, cut))).toThrow(KeytabFormatError);
    // An entry whose size claims less than its fields need.
    const lying = Buffer.from(whole);
    lying.writeInt32BE(6, 2);
    expect(() => parseKeytab(lying)).toThrow(KeytabFormatError);
  });
});

describe('keytabFor', () => {
  it('keeps the entries of one principal only, realm included, as a keytab of their own', () => {
    const mine = entry(['HTTP', 'app'], 'CORP.TEST', 2);
    const keytab = Buffer.concat([HEADER, entry(['HTTP', 'app'], 'EVIL.TEST', 2), mine, entry(['HTTP', 'other'], 'CORP.TEST', 2)]);
    expect(keytabFor(keytab, 'HTTP/app@CORP.TEST')).toEqual(Buffer.concat([HEADER, mine]));
    expect(keytabFor(keytab, 'HTTP/nope@CORP.TEST')).toBeNull();
  });
});
