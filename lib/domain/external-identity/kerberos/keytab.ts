// The MIT keytab file format, version 0x502 (what kadmin's ktadd, ktutil and Windows' ktpass write):
// a 16-bit version, then entries, each a signed 32-bit size (negative: a hole left by a removed
// entry) and the entry: component count, realm, components, name type, timestamp, 8-bit key
// version, key type and key, and optionally a 32-bit key version. All big-endian. Reference:
// https://web.mit.edu/kerberos/krb5-latest/doc/formats/keytab_file_format.html
//
// Gatehouse reads it for two reasons: to tell an administrator which principals an uploaded keytab
// holds, and to hand GSSAPI only the entries of the provider's configured service principal, so a
// provider's `Realm`/`ServicePrincipal` bind which keys may accept a ticket, whatever else the file holds.

const VERSION = 0x0502;

export type KeytabEntry = {
  /** `component/component@REALM`. */
  principal: string;
  kvno: number;
  enctype: number;
  /** The entry as stored, size prefix included, for writing a filtered keytab. */
  raw: Buffer;
};

export class KeytabFormatError extends Error {}

/** The entries of an MIT keytab; throws KeytabFormatError when the bytes are not one. */
export function parseKeytab(keytab: Buffer): KeytabEntry[] {
  if (keytab.length < 2 || keytab.readUInt16BE(0) !== VERSION) throw new KeytabFormatError('not an MIT keytab (version 0x502)');
  const entries: KeytabEntry[] = [];
  let at = 2;
  while (at + 4 <= keytab.length) {
    const size = keytab.readInt32BE(at);
    if (size === 0) break;
    if (size < 0) {
      at += 4 - size;
      continue;
    }
    const end = at + 4 + size;
    if (end > keytab.length) throw new KeytabFormatError('the keytab is truncated');
    entries.push(parseEntry(keytab.subarray(at + 4, end), keytab.subarray(at, end)));
    at = end;
  }
  if (at < keytab.length && at + 4 > keytab.length) throw new KeytabFormatError('the keytab ends inside an entry');
  return entries;
}

function parseEntry(body: Buffer, raw: Buffer): KeytabEntry {
  let at = 0;
  const need = (n: number) => {
    if (at + n > body.length) throw new KeytabFormatError('a keytab entry is truncated');
  };
  const u16 = () => (need(2), (at += 2), body.readUInt16BE(at - 2));
  const u32 = () => (need(4), (at += 4), body.readUInt32BE(at - 4));
  const octets = () => {
    const n = u16();
    need(n);
    at += n;
    return body.subarray(at - n, at);
  };
  const count = u16();
  const realm = octets().toString('utf8');
  const components: string[] = [];
  for (let i = 0; i < count; i++) components.push(octets().toString('utf8'));
  u32(); // name type
  u32(); // timestamp
  need(1);
  let kvno = body.readUInt8(at);
  at += 1;
  const enctype = u16();
  octets(); // the key itself, never kept
  // The 32-bit key version follows when there is room; it supersedes the 8-bit one (kvno > 255).
  if (at + 4 <= body.length) {
    const kvno32 = body.readUInt32BE(at);
    if (kvno32 !== 0) kvno = kvno32;
  }
  return { principal: `${components.join('/')}@${realm}`, kvno, enctype, raw };
}

/** The distinct principals a keytab holds keys for. */
export function keytabPrincipals(keytab: Buffer): string[] {
  return [...new Set(parseKeytab(keytab).map((e) => e.principal))];
}

/** A keytab with only the entries of `principal` (exact match, realm included), or null when it has none. */
export function keytabFor(keytab: Buffer, principal: string): Buffer | null {
  const entries = parseKeytab(keytab).filter((e) => e.principal === principal);
  if (entries.length === 0) return null;
  const header = Buffer.alloc(2);
  header.writeUInt16BE(VERSION, 0);
  return Buffer.concat([header, ...entries.map((e) => e.raw)]);
}
