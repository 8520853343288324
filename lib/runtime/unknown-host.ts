import type { IncomingMessage, ServerResponse } from 'node:http';
import { notFound } from '../errors/app-error';
import { prefersHtml } from '../web/prefers-html';
import { sendProblem } from './node-problem';

// A Host no realm claims (server.ts). A browser gets a plain page saying so; anything else the 404
// problem document. The page names no host and echoes nothing from the request; the HTML guard
// (html-guard.ts) gives it the fallback CSP, in which nothing runs.
const PAGE = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>Not found</title><style>body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;background:#f5f7fa;color:#1a2330}main{max-width:26rem;margin:10vh auto;padding:2rem;background:#fff;border:1px solid #dde3ea;border-radius:12px}h1{font-size:1.4rem;margin:0 0 1rem}</style></head><body><main><h1>Nothing here</h1><p>No site is served at this address. Check the address you opened, or ask whoever gave it to you.</p></main></body></html>`;

export function answerUnknownHost(req: IncomingMessage, res: ServerResponse): void {
  res.setHeader('vary', 'Accept');
  if (!prefersHtml(req.headers.accept)) return sendProblem(res, notFound());
  res.writeHead(404, { 'content-type': 'text/html; charset=utf-8', 'content-length': Buffer.byteLength(PAGE), 'cache-control': 'no-store' });
  res.end(PAGE);
}
