import { describe, expect, it } from 'vitest';
import { isStorageUnavailable } from './storage-unavailable';

describe('an unreachable database', () => {
  it('is recognised from Prisma codes, SQLSTATEs, socket codes and messages, however deep it is wrapped', () => {
    expect(isStorageUnavailable(Object.assign(new Error("Can't reach database server at 127.0.0.1:5432"), { code: 'P1001' }))).toBe(true);
    expect(isStorageUnavailable(Object.assign(new Error('x'), { code: '57P01' }))).toBe(true);
    expect(isStorageUnavailable(new Error('outer', { cause: Object.assign(new Error('connect'), { code: 'ECONNREFUSED' }) }))).toBe(true);
    expect(isStorageUnavailable({ meta: { driverAdapterError: { cause: { kind: 'DatabaseNotReachable' } } } })).toBe(true);
    expect(isStorageUnavailable(new Error('Connection terminated unexpectedly'))).toBe(true);
  });

  it('is not any other failure', () => {
    expect(isStorageUnavailable(Object.assign(new Error('Unique constraint failed'), { code: 'P2002' }))).toBe(false);
    expect(isStorageUnavailable(new Error('boom'))).toBe(false);
    expect(isStorageUnavailable(null)).toBe(false);
    const loop: { cause?: unknown } = {};
    loop.cause = loop;
    expect(isStorageUnavailable(loop)).toBe(false);
  });
});
