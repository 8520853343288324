import { describe, expect, it } from 'vitest';
import { prefersHtml } from './prefers-html';

describe('prefersHtml', () => {
  it('is true for a browser navigation', () => {
    expect(prefersHtml('text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8')).toBe(true);
    expect(prefersHtml('text/html')).toBe(true);
    expect(prefersHtml('application/json;q=0.5, text/html')).toBe(true);
  });

  it('is false for API clients, wildcards and refusals', () => {
    for (const accept of [
      undefined,
      '',
      '*/*',
      'application/json',
      'application/problem+json',
      'text/*',
      'text/html;q=0',
      'text/html;q=0.5, application/json',
      'text/html;q=abc',
    ]) {
      expect(prefersHtml(accept), String(accept)).toBe(false);
    }
  });
});
