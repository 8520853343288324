import { notFound } from '@/lib/errors/app-error';
import { problemResponse } from '@/lib/http/respond';

// Any /api path no route declares: a problem+json 404 like every other API error, rather than
// the HTML page Next renders for unknown pages.
function unknownApiPath(): Response {
  return problemResponse(notFound());
}

export const GET = unknownApiPath;
export const POST = unknownApiPath;
export const PUT = unknownApiPath;
export const PATCH = unknownApiPath;
export const DELETE = unknownApiPath;
