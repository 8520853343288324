import { randomBytes } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';

beforeAll(() => {
  process.env.GATEHOUSE_SECRET_KEY = randomBytes(32).toString('base64');
});

describe('seal/open', () => {
  it('round-trips and uses a fresh nonce each time', async () => {
    const { open, seal } = await import('./secret-box');
    const a = await seal('JBSWY3DPEHPK3PXP');
    const b = await seal('JBSWY3DPEHPK3PXP');
    expect(a).not.toBe(b);
    expect(a).not.toContain('JBSWY3DPEHPK3PXP');
    expect(await open(a)).toBe('JBSWY3DPEHPK3PXP');
  });

  it('refuses a tampered value', async () => {
    const { open, seal } = await import('./secret-box');
    const sealed = await seal('secret');
    const parts = sealed.split('.');
    const body = Buffer.from(parts[2], 'base64url');
    body[0] ^= 1;
    await expect(open(`${parts[0]}.${parts[1]}.${body.toString('base64url')}`)).rejects.toThrow();
  });
});
