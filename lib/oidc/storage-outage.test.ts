import { EventEmitter } from 'node:events';
import type Provider from 'oidc-provider';
import { describe, expect, it } from 'vitest';
import { answerFailedWrite, answerStorageOutage, watchStorageOutages } from './storage-outage';

type Ctx = { status?: number; body?: unknown; headers: Record<string, string>; set(name: string, value: string): void };
const ctx = (): Ctx => {
  const c: Ctx = { headers: {}, set: (name, value) => void (c.headers[name] = value) };
  return c;
};

describe("the engine's answer when the database cannot be reached", () => {
  const provider = new EventEmitter();
  const others: unknown[] = [];
  watchStorageOutages(provider as unknown as Provider, (e) => others.push(e));

  it('is 503 temporarily_unavailable with Retry-After instead of 500 server_error', () => {
    const c = ctx();
    provider.emit('server_error', c, Object.assign(new Error("Can't reach database server"), { code: 'P1001' }));
    c.status = 500;
    c.body = { error: 'server_error' };
    answerStorageOutage(c);
    expect(c.status).toBe(503);
    expect(c.headers['Retry-After']).toBe('5');
    expect(c.body).toMatchObject({ error: 'temporarily_unavailable' });
  });

  it('leaves any other server error as it is, and logs it', () => {
    const c = ctx();
    const boom = new Error('boom');
    provider.emit('server_error', c, boom);
    c.status = 500;
    c.body = { error: 'server_error' };
    answerStorageOutage(c);
    expect(c.status).toBe(500);
    expect(others).toContain(boom);
  });

  it('turns an answer whose writes did not commit into a server error, with no redirect left, reported as the engine reports its own', () => {
    const headers: Record<string, string> = { Location: 'https://app.example/cb?code=never-saved' };
    const failed = Object.assign(new Error('disk I/O error'), { code: 'SQLITE_IOERR' });
    const c = {
      ...ctx(),
      status: 302,
      body: 'Redirecting',
      remove: (name: string) => void delete headers[name],
      oidc: { provider },
    };
    answerFailedWrite(c, failed);
    expect(c.status).toBe(500);
    expect(c.body).toMatchObject({ error: 'server_error' });
    expect(headers).toEqual({});
    expect(others).toContain(failed);
  });

  it('answers 503 when the write failed because the database cannot be reached', () => {
    const c = { ...ctx(), status: 200, body: { access_token: 'never-saved' }, remove: () => {}, oidc: { provider } };
    answerFailedWrite(c, Object.assign(new Error("Can't reach database server"), { code: 'P1001' }));
    answerStorageOutage(c);
    expect(c.status).toBe(503);
    expect(c.body).toMatchObject({ error: 'temporarily_unavailable' });
  });

  it('leaves an answer the engine already made a server error of (a read that waited for the write failed with it), reported once', () => {
    const failed = new Error('disk I/O error, once');
    const c = { ...ctx(), status: 500, body: { error: 'server_error', error_description: 'the engine said so' }, remove: () => {}, oidc: { provider } };
    answerFailedWrite(c, failed);
    expect(c.body).toEqual({ error: 'server_error', error_description: 'the engine said so' });
    expect(others).not.toContain(failed);
  });
});
