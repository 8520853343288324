import { describe, expect, it } from 'vitest';
import { isValidDomain, normalizeHost } from './host';

describe('normalizeHost', () => {
  it('removes the port and lower-cases', () => {
    expect(normalizeHost('Acme.Example.COM:8443')).toBe('acme.example.com');
    expect(normalizeHost('localhost')).toBe('localhost');
    expect(normalizeHost('127.0.0.1:3000')).toBe('127.0.0.1');
    expect(normalizeHost('[::1]:3000')).toBe('[::1]');
  });

  it('refuses odd values', () => {
    for (const bad of ['', ' ', 'a b', 'evil.com/x', 'host:abc', 'x'.repeat(400), '[::1', 'a..b', '-a.com', 'a.com:1:2', '%00']) {
      expect(normalizeHost(bad)).toBeNull();
    }
    expect(normalizeHost(undefined)).toBeNull();
  });
});

describe('isValidDomain', () => {
  it('accepts host names and refuses ports and junk', () => {
    expect(isValidDomain('acme.localhost')).toBe(true);
    expect(isValidDomain('acme.localhost:3000')).toBe(false);
    expect(isValidDomain('acme.localhost/path')).toBe(false);
    expect(isValidDomain('http://acme')).toBe(false);
  });
});
