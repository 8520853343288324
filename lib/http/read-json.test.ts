import { describe, expect, it } from 'vitest';
import { readJsonBody } from './read-json';

const post = (body: string | null, type = 'application/json') =>
  new Request('http://x/', { method: 'POST', body, headers: type ? { 'content-type': type } : {} });

describe('readJsonBody', () => {
  it('parses JSON and reads an empty body as undefined', async () => {
    expect(await readJsonBody(post('{"A":1}'))).toEqual({ A: 1 });
    expect(await readJsonBody(post(''))).toBeUndefined();
    expect(await readJsonBody(post('{"A":1}', 'application/merge-patch+json'))).toEqual({ A: 1 });
  });

  it('answers 400, 413 and 415 with catalog codes', async () => {
    await expect(readJsonBody(post('{oops'))).rejects.toMatchObject({ code: 'Request.MalformedJson', status: 400 });
    await expect(readJsonBody(post('x'.repeat(100)), 10)).rejects.toMatchObject({ code: 'Request.TooLarge', status: 413 });
    await expect(readJsonBody(post('a=b', 'application/x-www-form-urlencoded'))).rejects.toMatchObject({ code: 'Request.UnsupportedMediaType', status: 415 });
  });
});
