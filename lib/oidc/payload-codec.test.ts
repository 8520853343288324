import { oidcStorageKey } from '../db/oidc-payload-key';
import { randomBytes } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { decodePayload, encodePayload, withId, withoutId } from './payload-codec';

describe('engine payload codec', () => {
  beforeAll(() => {
    process.env.GATEHOUSE_SECRET_KEY ??= randomBytes(32).toString('base64');
  });

  it('seals the bearer values (jti, userCode, session.cookie) and gives them back', async () => {
    const payload = {
      jti: 'refresh-token-value-0123456789',
      userCode: 'BCDF-GHJK',
      kind: 'DeviceCode',
      exp: 123,
      session: { accountId: 'u1', cookie: 'engine-session-id-0123456789', uid: 'x' },
    };
    const stored = await encodePayload(payload);
    for (const secret of [payload.jti, payload.userCode, payload.session.cookie]) expect(stored).not.toContain(secret);
    // What Gatehouse's own readers need stays plain.
    expect(JSON.parse(stored)).toMatchObject({ kind: 'DeviceCode', exp: 123, session: { accountId: 'u1', uid: 'x' } });
    expect(await decodePayload(stored)).toEqual(payload);
  });

  it('reads unsealed or foreign values as they are, and garbage as nothing', async () => {
    expect(await decodePayload('{"jti":"plain","a":1}')).toEqual({ jti: 'plain', a: 1 });
    expect(await decodePayload('{"jti":"sealed:v1.bad.value"}')).toBeUndefined();
    expect(await decodePayload('not json')).toBeUndefined();
  });

  it('stores a record found by its id without its jti, and puts it back from the id', async () => {
    const token = { jti: 'opaque-access-token-value-0123456789', kind: 'AccessToken', exp: 123, accountId: 'u1' };
    const stored = await encodePayload(withoutId(token, token.jti));
    expect(stored).not.toContain(token.jti);
    expect(stored).not.toContain('sealed:'); // nothing left to seal
    expect(withId((await decodePayload(stored))!, token.jti)).toEqual(token);
    // A jti that is not the id (never the engine's case) is kept, sealed.
    const other = await encodePayload(withoutId({ jti: 'another-value-0123456789' }, 'the-id'));
    expect(other).toContain('sealed:');
    expect(withId((await decodePayload(other))!, 'the-id')).toEqual({ jti: 'another-value-0123456789' });
  });

  it('keys rows by the SHA-256 of the id', () => {
    expect(oidcStorageKey('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });
});

describe('keys named after Object.prototype members', () => {
  it('stay plain own keys through encode and decode', async () => {
    const stored = await encodePayload(JSON.parse('{"params":{"__proto__":{"jti":"planted"},"constructor":"x"}}'));
    const back = (await decodePayload(stored))!;
    const params = back.params as Record<string, unknown>;
    expect(Object.getPrototypeOf(params)).toBe(Object.prototype);
    expect(Object.keys(params).sort()).toEqual(['__proto__', 'constructor']);
    expect((params as { jti?: unknown }).jti).toBeUndefined();
  });
});
