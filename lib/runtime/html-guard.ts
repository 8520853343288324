import type { OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { isHtml } from '../web/security-headers';

/** The value of `name` among writeHead's headers argument (an object or a flat [k, v, ...] array). */
function fromArgs(args: unknown[], name: string): unknown {
  for (const arg of args) {
    if (Array.isArray(arg)) {
      for (let i = 0; i + 1 < arg.length; i += 2) if (String(arg[i]).toLowerCase() === name) return arg[i + 1];
    } else if (arg && typeof arg === 'object') {
      for (const [k, v] of Object.entries(arg as OutgoingHttpHeaders)) if (k.toLowerCase() === name) return v;
    }
  }
  return undefined;
}

/**
 * Makes sure no HTML leaves this response without a Content-Security-Policy: when the head is
 * written (explicitly, or implicitly by the first write) and names an HTML body but no policy,
 * `csp` is added. Pages that set their own (Next's nonce policy, the engine's) keep theirs.
 */
export function guardHtmlResponses(res: ServerResponse, csp: string): void {
  const writeHead = res.writeHead;
  res.writeHead = function guarded(this: ServerResponse, ...args: unknown[]) {
    const type = fromArgs(args, 'content-type') ?? this.getHeader('content-type');
    const policy = fromArgs(args, 'content-security-policy') ?? this.getHeader('content-security-policy');
    if (isHtml(type) && !policy && !this.headersSent) this.setHeader('content-security-policy', csp);
    return (writeHead as (...a: unknown[]) => ServerResponse).apply(this, args);
  };
}
