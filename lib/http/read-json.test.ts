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

  it('reads the rest of a too-large upload before it answers 413, up to a ceiling', async () => {
    // A body stream that counts what was pulled from it, sent with its length declared or not.
    const upload = (total: number, declared: boolean) => {
      let pulled = 0;
      const chunk = new Uint8Array(64 * 1024);
      const body = new ReadableStream<Uint8Array>({
        pull(controller) {
          if (pulled >= total) return controller.close();
          pulled += chunk.byteLength;
          controller.enqueue(chunk);
        },
      });
      const headers: Record<string, string> = { 'content-type': 'application/json', ...(declared ? { 'content-length': String(total) } : {}) };
      const request = new Request('http://x/', { method: 'POST', body, headers, duplex: 'half' } as RequestInit);
      return { request, pulled: () => pulled };
    };
    for (const declared of [true, false]) {
      const small = upload(2 * 1024 * 1024, declared);
      await expect(readJsonBody(small.request, 1024)).rejects.toMatchObject({ code: 'Request.TooLarge' });
      expect(small.pulled(), `declared: ${declared}`).toBe(2 * 1024 * 1024);
      // Past the ceiling the reading stops: an endless upload is not read to its end.
      const huge = upload(64 * 1024 * 1024, declared);
      await expect(readJsonBody(huge.request, 1024)).rejects.toMatchObject({ code: 'Request.TooLarge' });
      expect(huge.pulled()).toBeLessThan(20 * 1024 * 1024);
    }
  });

  it('answers 413, not an error, when the client gives up on a too-large upload', async () => {
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent >= 512 * 1024) return controller.error(new Error('aborted'));
        sent += 64 * 1024;
        controller.enqueue(new Uint8Array(64 * 1024));
      },
    });
    const request = new Request('http://x/', {
      method: 'POST',
      body,
      headers: { 'content-type': 'application/json', 'content-length': String(2 * 1024 * 1024) },
      duplex: 'half',
    } as RequestInit);
    await expect(readJsonBody(request, 1024)).rejects.toMatchObject({ code: 'Request.TooLarge' });
  });
});
