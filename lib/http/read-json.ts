import { AppError } from '../errors/app-error';
import { parseFormFields } from './form-fields';

// Reads a JSON request body with a size ceiling (413 past it) and clear 400/415 answers for
// malformed or non-JSON bodies. An empty body reads as undefined.
const DEFAULT_BODY_LIMIT = 256 * 1024;

// A 413 sent before the upload ends closes the connection with the rest unread, and the client's
// TCP stack then drops the answer when the reset comes (Node's HTTP server has no lingering close):
// the client sees EPIPE or ECONNRESET instead of the 413. Up to DRAIN_LIMIT the rest of the body is
// read and dropped first, so that the client hears why; past it the connection is cut at once.
const DRAIN_LIMIT = 16 * 1024 * 1024;

async function dropRest(reader: ReadableStreamDefaultReader<Uint8Array>, size: number): Promise<void> {
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      size += value.byteLength;
      if (size > DRAIN_LIMIT) return void (await reader.cancel().catch(() => undefined));
    }
  } catch {
    // The client gave up on the upload: the 413 still stands (for nobody), never a 500.
  }
}

export async function readJsonBody(request: Request, limit = DEFAULT_BODY_LIMIT, format: 'json' | 'form' = 'json'): Promise<unknown> {
  const tooLarge = () => new AppError('Request.TooLarge', { detail: `The limit is ${limit} bytes.` });
  const declared = Number(request.headers.get('content-length') ?? 0);
  if (declared > limit) {
    if (request.body && declared <= DRAIN_LIMIT) await dropRest(request.body.getReader(), 0);
    throw tooLarge();
  }
  if (!request.body) return undefined;
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await dropRest(reader, size);
      throw tooLarge();
    }
    chunks.push(value);
  }
  if (size === 0) return undefined;
  const contentType = request.headers.get('content-type') ?? '';
  if (format === 'form') {
    // An HTML form post (the SAML HTTP-POST binding): fields as strings, own keys only.
    if (!/^application\/x-www-form-urlencoded\b/i.test(contentType)) throw new AppError('Request.UnsupportedMediaType');
    return parseFormFields(Buffer.concat(chunks).toString('utf8'));
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
