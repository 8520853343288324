import { generate } from 'otplib';
import { describe, expect, it } from 'vitest';
import { authenticatorUri, checkTotpCode, isFreshStep, newTotpKey, qrCodeSvg } from './totp';

const now = () => Math.floor(Date.now() / 1000);

describe('totp', () => {
  it('makes a 160-bit base32 key and the otpauth URI authenticator apps read', () => {
    const key = newTotpKey();
    expect(key).toMatch(/^[A-Z2-7]{32}$/);
    const text = authenticatorUri('Acme Realm', 'ada', key);
    expect(decodeURIComponent(text.split('?')[0])).toBe('otpauth://totp/Acme Realm:ada');
    const uri = new URL(text);
    expect(uri.searchParams.get('secret')).toBe(key);
    expect(uri.searchParams.get('issuer')).toBe('Acme Realm');
  });

  it('keeps colons out of the label', () => {
    const uri = authenticatorUri('A:B', 'c:d', newTotpKey());
    expect(decodeURIComponent(uri.split('?')[0])).toBe('otpauth://totp/A B:c d');
  });

  it('accepts the current code and one step either side, with the step it matched', async () => {
    const key = newTotpKey();
    const t = now();
    const step = Math.floor(t / 30);
    const current = await checkTotpCode(key, await generate({ secret: key, epoch: t }), t);
    expect(current).toEqual({ valid: true, timeStep: step });
    expect(await checkTotpCode(key, await generate({ secret: key, epoch: t - 30 }), t)).toEqual({ valid: true, timeStep: step - 1 });
    expect(await checkTotpCode(key, await generate({ secret: key, epoch: t + 30 }), t)).toEqual({ valid: true, timeStep: step + 1 });
  });

  it('refuses codes two steps away, malformed codes and another key', async () => {
    const key = newTotpKey();
    const t = now();
    expect(await checkTotpCode(key, await generate({ secret: key, epoch: t - 90 }), t)).toEqual({ valid: false });
    expect(await checkTotpCode(key, await generate({ secret: key, epoch: t + 90 }), t)).toEqual({ valid: false });
    for (const bad of ['', '12345', '1234567', 'abcdef', '12 34 5x']) expect(await checkTotpCode(key, bad, t)).toEqual({ valid: false });
    // Another key accepts it only by a one-in-a-million coincidence (three steps: ~3e-6).
    expect((await checkTotpCode(newTotpKey(), await generate({ secret: key, epoch: t }), t)).valid).toBe(false);
  });

  it('tolerates spaces inside a code', async () => {
    const key = newTotpKey();
    const code = await generate({ secret: key });
    expect((await checkTotpCode(key, `${code.slice(0, 3)} ${code.slice(3)}`)).valid).toBe(true);
  });

  it('a step is fresh only after the last accepted one', () => {
    expect(isFreshStep(10, null)).toBe(true);
    expect(isFreshStep(10, 9)).toBe(true);
    expect(isFreshStep(10, 10)).toBe(false);
    expect(isFreshStep(9, 10)).toBe(false);
  });

  it('renders the URI as an SVG QR code', async () => {
    const svg = await qrCodeSvg('otpauth://totp/A:b?secret=AAAA&issuer=A');
    expect(svg.startsWith('<svg')).toBe(true);
  });
});
