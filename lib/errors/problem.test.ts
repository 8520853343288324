import { describe, expect, it, vi } from 'vitest';
import { AppError, notFound } from './app-error';
import { problemFromError } from './problem';

describe('problemFromError', () => {
  it('maps catalog errors with their code, detail and errors', () => {
    const p = problemFromError(new AppError('Validation.Failed', { errors: { Slug: ['bad'] }, detail: 'd' }));
    expect(p.status).toBe(400);
    expect(p.body).toMatchObject({ status: 400, code: 'Validation.Failed', detail: 'd', errors: { Slug: ['bad'] } });
  });

  it('answers hidden surfaces with a bare 404', () => {
    const p = problemFromError(notFound());
    expect(p.status).toBe(404);
    expect(p.body.code).toBeUndefined();
  });

  it('adds Retry-After and the spec body to rate-limit problems', () => {
    const p = problemFromError(
      new AppError('RateLimit.Exceeded', {
        retryAfterSeconds: 7,
        extensions: { error: 'rate_limited', policy: 'bootstrap', dimension: 'source', retryAfterSeconds: 7 },
      }),
    );
    expect(p.headers['Retry-After']).toBe('7');
    expect(p.body).toMatchObject({ status: 429, error: 'rate_limited', policy: 'bootstrap', dimension: 'source', retryAfterSeconds: 7 });
  });

  it('challenges token failures in the scheme the client must use (RFC 6750 3, RFC 9449 7.1)', () => {
    const challenge = (code: 'Auth.InvalidToken' | 'Auth.DpopRequired' | 'Auth.InvalidDpopProof' | 'Auth.TokenNotDpopBound') =>
      problemFromError(new AppError(code)).headers['WWW-Authenticate'];
    expect(challenge('Auth.InvalidToken')).toBe('Bearer error="invalid_token"');
    expect(challenge('Auth.DpopRequired')).toBe('DPoP error="invalid_token", algs="ES256 Ed25519 EdDSA"');
    expect(challenge('Auth.InvalidDpopProof')).toBe('DPoP error="invalid_dpop_proof", algs="ES256 Ed25519 EdDSA"');
    expect(challenge('Auth.TokenNotDpopBound')).toBe('Bearer error="invalid_token"');
  });

  it('never leaks an unexpected error', () => {
    const spy = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    const p = problemFromError(new Error('SELECT secret FROM users'));
    spy.mockRestore();
    expect(p.status).toBe(500);
    expect(JSON.stringify(p.body)).not.toContain('secret');
  });
});
