import { IncomingMessage, ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { guardHtmlResponses } from './html-guard';

function response(): ServerResponse {
  const res = new ServerResponse(new IncomingMessage(new Socket()));
  guardHtmlResponses(res, "default-src 'none'");
  return res;
}

describe('guardHtmlResponses', () => {
  it('adds the policy to HTML set by setHeader (implicit head) or by writeHead arguments', () => {
    const a = response();
    a.setHeader('content-type', 'text/html; charset=utf-8');
    a.writeHead(200);
    expect(a.getHeader('content-security-policy')).toBe("default-src 'none'");
    const b = response();
    b.writeHead(404, { 'Content-Type': 'text/html' });
    expect(b.getHeader('content-security-policy')).toBe("default-src 'none'");
  });

  it('keeps a page’s own policy and leaves other types alone', () => {
    const own = response();
    own.setHeader('content-security-policy', "script-src 'nonce-x'");
    own.writeHead(200, { 'content-type': 'text/html' });
    expect(own.getHeader('content-security-policy')).toBe("script-src 'nonce-x'");
    const json = response();
    json.writeHead(200, { 'content-type': 'application/json' });
    expect(json.getHeader('content-security-policy')).toBeUndefined();
  });
});
