import { openApiDocument } from '@/lib/api/openapi-document';

// GET /swagger/v1/swagger.json: the OpenAPI 3.1 document, anonymous, on every realm host. The
// document is the same for all realms and built once per process; so is its serialisation.
let body: string | undefined;

export function GET(): Response {
  body ??= JSON.stringify(openApiDocument());
  return new Response(body, {
    status: 200,
    headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'public, max-age=300' },
  });
}
