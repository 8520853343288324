import { describe, expect, it } from 'vitest';
import { securityLogQuerySchema } from './schemas';

describe('the security-log filters', () => {
  it('reads a bare day as the whole day (UTC) and an instant as is', () => {
    const q = securityLogQuerySchema.parse({ from: '2025-05-01', to: '2025-05-02' });
    expect(q.from?.toISOString()).toBe('2025-05-01T00:00:00.000Z');
    expect(q.to?.toISOString()).toBe('2025-05-02T23:59:59.999Z');
    const i = securityLogQuerySchema.parse({ from: '2025-05-01T08:00:00+02:00' });
    expect(i.from?.toISOString()).toBe('2025-05-01T06:00:00.000Z');
    expect(i.limit).toBe(100);
  });

  it('refuses what is not a date, an end before the start and a user id that could carry a wildcard, in plain words', () => {
    const messages = (input: unknown) => {
      const r = securityLogQuerySchema.safeParse(input);
      return r.success ? [] : r.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
    };
    expect(messages({ from: 'yesterday' })).toEqual(['from: Enter a date like 2025-05-01, or a date and time like 2025-05-01T08:00:00Z.']);
    expect(messages({ to: '2025-02-30' })[0]).toMatch(/^to: Enter a date/);
    expect(messages({ from: '2025-05-02', to: '2025-05-01' })).toEqual(['to: The end must not be before the start.']);
    expect(messages({ from: '2025-05-01', to: '2025-05-01' })).toEqual([]);
    expect(messages({ userId: 'a%' })).toEqual(['userId: Enter a user id.']);
    expect(messages({ userId: 'a_b' })).toEqual(['userId: Enter a user id.']);
    expect(messages({ userId: '0b9c4f0e-1a2b-4c3d-8e9f-0123456789ab' })).toEqual([]);
  });

  it('caps the limit at 1000', () => {
    expect(securityLogQuerySchema.parse({ limit: '5000' }).limit).toBe(1000);
  });
});
