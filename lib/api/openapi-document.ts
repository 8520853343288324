import { buildOpenApiDocument, type OpenApiDocument } from '../http/openapi';
import { catalogEntries } from './catalog';

// The OpenAPI document of the REST surface (GET /swagger/v1/swagger.json, the /swagger page): the
// catalog's declarations handed to the builder in lib/http, which knows no catalog of its own.
let cached: OpenApiDocument | undefined;

/** The document of this process's catalog, built once. */
export function openApiDocument(): OpenApiDocument {
  cached ??= buildOpenApiDocument(catalogEntries);
  return cached;
}
