import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';

// A software WebAuthn authenticator for HTTP tests without a browser: a P-256 (ES256) key pair per
// credential, 'none' attestation, resident (discoverable) credentials with user verification. It
// produces the RegistrationResponseJSON / AuthenticationResponseJSON @simplewebauthn/browser would
// send. Every field a test may want to break (origin, RP ID, flags, counter, challenge) can be
// overridden per call.

// --- a tiny CBOR encoder (RFC 8949): the types attestation objects and COSE keys need ---
type Cbor = number | string | Uint8Array | Cbor[] | Map<Cbor, Cbor> | { [k: string]: Cbor };

function head(major: number, n: number): Buffer {
  if (n < 24) return Buffer.from([(major << 5) | n]);
  if (n < 0x100) return Buffer.from([(major << 5) | 24, n]);
  if (n < 0x10000) return Buffer.from([(major << 5) | 25, n >> 8, n & 0xff]);
  const b = Buffer.alloc(5);
  b[0] = (major << 5) | 26;
  b.writeUInt32BE(n, 1);
  return b;
}

export function cbor(value: Cbor): Buffer {
  if (typeof value === 'number') {
    if (!Number.isInteger(value)) throw new Error('only integers');
    return value >= 0 ? head(0, value) : head(1, -1 - value);
  }
  if (typeof value === 'string') {
    const bytes = Buffer.from(value, 'utf8');
    return Buffer.concat([head(3, bytes.length), bytes]);
  }
  if (value instanceof Uint8Array) return Buffer.concat([head(2, value.length), Buffer.from(value)]);
  if (Array.isArray(value)) return Buffer.concat([head(4, value.length), ...value.map(cbor)]);
  const entries = value instanceof Map ? [...value.entries()] : Object.entries(value);
  return Buffer.concat([head(5, entries.length), ...entries.flatMap(([k, v]) => [cbor(k), cbor(v)])]);
}

// --- the authenticator ---
export const FLAG = { UP: 0x01, UV: 0x04, BE: 0x08, BS: 0x10, AT: 0x40 } as const;

export type SoftCredential = {
  id: Buffer;
  privateKey: KeyObject;
  publicKey: KeyObject;
  rpId: string;
  userHandle: string;
  counter: number;
};

export type Overrides = {
  /** clientDataJSON.origin (default: http://<rpId>:<port>). */
  origin?: string;
  /** The RP ID whose SHA-256 goes into authenticatorData (default: the options' RP ID). */
  rpId?: string;
  /** authenticatorData flags (default: UP|UV|BE|BS, plus AT on registration). */
  flags?: number;
  /** Signature counter to report (default: the credential's counter + 1). */
  counter?: number;
  /** clientDataJSON.challenge (default: the options' challenge). */
  challenge?: string;
  /** clientDataJSON.type. */
  type?: string;
};

const b64u = (b: Uint8Array) => Buffer.from(b).toString('base64url');
const sha256 = (b: Uint8Array | string) => createHash('sha256').update(b).digest();

function coseKey(publicKey: KeyObject): Buffer {
  const jwk = publicKey.export({ format: 'jwk' });
  const x = Buffer.from(jwk.x!, 'base64url');
  const y = Buffer.from(jwk.y!, 'base64url');
  // kty: EC2 (2), alg: ES256 (-7), crv: P-256 (1), x, y
  return cbor(
    new Map<Cbor, Cbor>([
      [1, 2],
      [3, -7],
      [-1, 1],
      [-2, x],
      [-3, y],
    ]),
  );
}

function clientData(type: string, challenge: string, origin: string): Buffer {
  return Buffer.from(JSON.stringify({ type, challenge, origin, crossOrigin: false }));
}

export class SoftAuthenticator {
  readonly credentials: SoftCredential[] = [];

  constructor(private readonly port: number) {}

  defaultOrigin(rpId: string): string {
    return `http://${rpId}:${this.port}`;
  }

  /**
   * navigator.credentials.create(): a new credential (or `reuse` an existing one, to register the
   * same credential twice) for creation options as the server sent them.
   */
  create(options: any, o: Overrides & { reuse?: SoftCredential } = {}): any {
    const rpId: string = options.rp.id;
    let cred = o.reuse;
    if (!cred) {
      const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
      cred = { id: randomBytes(32), privateKey, publicKey, rpId, userHandle: options.user.id, counter: 0 };
    }
    const data = clientData(o.type ?? 'webauthn.create', o.challenge ?? options.challenge, o.origin ?? this.defaultOrigin(rpId));
    const counter = Buffer.alloc(4);
    counter.writeUInt32BE(o.counter ?? cred.counter);
    const credIdLen = Buffer.alloc(2);
    credIdLen.writeUInt16BE(cred.id.length);
    const authData = Buffer.concat([
      sha256(o.rpId ?? rpId),
      Buffer.from([o.flags ?? FLAG.UP | FLAG.UV | FLAG.BE | FLAG.BS | FLAG.AT]),
      counter,
      Buffer.alloc(16), // AAGUID: none
      credIdLen,
      cred.id,
      coseKey(cred.publicKey),
    ]);
    const attestationObject = cbor({ fmt: 'none', attStmt: {}, authData });
    if (!o.reuse) this.credentials.push(cred);
    return {
      id: b64u(cred.id),
      rawId: b64u(cred.id),
      type: 'public-key',
      response: { clientDataJSON: b64u(data), attestationObject: b64u(attestationObject), transports: ['internal', 'hybrid'] },
      authenticatorAttachment: 'platform',
      clientExtensionResults: {},
    };
  }

  /**
   * navigator.credentials.get(): an assertion for request options. With allowCredentials the first
   * listed credential this authenticator holds answers; without, the first (or `use`) resident
   * credential of the RP ID answers (usernameless).
   */
  get(options: any, o: Overrides & { use?: SoftCredential } = {}): any {
    const rpId: string = options.rpId;
    const allowed: string[] | undefined = options.allowCredentials?.map((c: { id: string }) => c.id);
    const cred = o.use ?? this.credentials.find((c) => c.rpId === rpId && (!allowed || allowed.length === 0 || allowed.includes(b64u(c.id))));
    if (!cred) throw new Error(`no credential for ${rpId}${allowed ? ` among ${allowed.join(', ')}` : ''}`);
    const data = clientData(o.type ?? 'webauthn.get', o.challenge ?? options.challenge, o.origin ?? this.defaultOrigin(rpId));
    const next = o.counter ?? cred.counter + 1;
    if (o.counter === undefined) cred.counter = next;
    const counter = Buffer.alloc(4);
    counter.writeUInt32BE(next);
    const authData = Buffer.concat([sha256(o.rpId ?? rpId), Buffer.from([o.flags ?? FLAG.UP | FLAG.UV | FLAG.BE | FLAG.BS]), counter]);
    const signature = sign('sha256', Buffer.concat([authData, sha256(data)]), cred.privateKey);
    return {
      id: b64u(cred.id),
      rawId: b64u(cred.id),
      type: 'public-key',
      response: { clientDataJSON: b64u(data), authenticatorData: b64u(authData), signature: b64u(signature), userHandle: cred.userHandle },
      authenticatorAttachment: 'platform',
      clientExtensionResults: {},
    };
  }
}
