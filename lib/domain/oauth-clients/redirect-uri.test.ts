import { describe, expect, it } from 'vitest';
import { redirectUriErrors, redirectUriProblem } from './redirect-uri';

describe('redirect URIs a client may register', () => {
  it.each([
    'https://app.example.com/callback',
    'https://app.example.com:8443/cb?x=1',
    'http://localhost:3000/cb',
    'http://127.0.0.1/cb',
    'http://[::1]:8080/cb',
    'http://shop.localhost/cb',
    'com.example.app:/oauth2redirect',
    'com.example.app://callback',
  ])('accepts %s', (uri) => {
    expect(redirectUriProblem(uri)).toBeUndefined();
  });

  it.each([
    ['/relative/path', 'absolute'],
    ['https://app.example.com/cb#frag', 'fragment'],
    ['http://app.example.com/cb', 'http only'],
    ['http://localhost.example.com/cb', 'http only'],
    ['https://*.example.com/cb', 'wildcards'],
    ['https://user:pw@example.com/cb', 'user information'],
    ['javascript:alert(1)', 'private-use'],
    ['data:text/html,hi', 'private-use'],
    ['file:///etc/passwd', 'private-use'],
    ['myapp://callback', 'private-use'],
    ['https://example.com/a b', 'spaces'],
  ])('refuses %s', (uri, why) => {
    expect(redirectUriProblem(uri)).toContain(why);
  });

  it('names every refused URI', () => {
    expect(redirectUriErrors(['https://ok.example/cb', 'http://bad.example/cb', 'nope'])).toEqual([
      expect.stringMatching(/^http:\/\/bad\.example\/cb /),
      expect.stringMatching(/^nope /),
    ]);
  });
});
