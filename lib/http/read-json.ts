import { AppError } from '../errors/app-error';

// Reads a JSON request body with a size ceiling (413 past it) and clear 400/415 answers for
// malformed or non-JSON bodies. An empty body reads as undefined.
const DEFAULT_BODY_LIMIT = 256 * 1024;

export async function readJsonBody(request: Request, limit = DEFAULT_BODY_LIMIT, format: 'json' | 'form' = 'json'): Promise<unknown> {
  const declared = request.headers.get('content-length');
  if (declared && Number(declared) > limit) throw new AppError('Request.TooLarge', { detail: `The limit is ${limit} bytes.` });
  if (!request.body) return undefined;
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => undefined);
      throw new AppError('Request.TooLarge', { detail: `The limit is ${limit} bytes.` });
    }
    chunks.push(value);
  }
  if (size === 0) return undefined;
  const contentType = request.headers.get('content-type') ?? '';
  if (format === 'form') {
    // An HTML form post (the SAML HTTP-POST binding): fields as strings, own keys only.
    if (!/^application\/x-www-form-urlencoded\b/i.test(contentType)) throw new AppError('Request.UnsupportedMediaType');
    return Object.fromEntries(new URLSearchParams(Buffer.concat(chunks).toString('utf8')));
  }
  if (!/^application\/([a-z0-9.+-]*\+)?json\b/i.test(contentType)) {
    throw new AppError('Request.UnsupportedMediaType');
  }
  const text = Buffer.concat(chunks).toString('utf8');
  try {
    return JSON.parse(text);
  } catch {
    throw new AppError('Request.MalformedJson');
  }
}
