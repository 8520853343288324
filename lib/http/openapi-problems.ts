import { errorCatalog } from '../errors/catalog';
import { PROBLEM_CONTENT_TYPE } from '../errors/problem';
import { rateLimitPolicies } from '../rate-limit/policies';
import type { AnyEndpoint } from './endpoint';
import type { JsonSchema } from './openapi-schema';

// The problem+json side of the OpenAPI document: the shared ProblemDetails and RateLimitProblem
// schemas (lib/errors/problem.ts, spec 7), one reusable response per error status, and the rule
// that decides which of them an operation can answer. The rule follows the route wrapper's fixed
// order of checks (lib/http/route.ts): hidden surface or unknown host 404, CSRF 403, 401, 403, 429,
// then input 400/413/415; 409 comes from the domain (names, slugs and domains taken, blockers).

const SCHEMAS = '#/components/schemas/';
const RESPONSES = '#/components/responses/';

export const problemSchemas: Record<string, JsonSchema> = {
  ProblemDetails: {
    type: 'object',
    description: 'RFC 9457 problem details. No stack trace or internal message ever appears here.',
    properties: {
      type: { type: 'string', format: 'uri-reference' },
      title: { type: 'string' },
      status: { type: 'integer', minimum: 400, maximum: 599 },
      detail: { type: 'string' },
      code: {
        type: 'string',
        description: 'The named condition (Area.Reason); absent on the bare 404 of unknown hosts and hidden surfaces.',
        enum: Object.keys(errorCatalog),
      },
      errors: {
        type: 'object',
        description: 'Validation.Failed only: field name (dotted path, `$` for the whole body) to messages.',
        additionalProperties: { type: 'array', items: { type: 'string' } },
      },
    },
    required: ['type', 'title', 'status'],
  },
  RateLimitProblem: {
    description: 'The 429 body (spec 7): a problem with the rate-limit members; Retry-After carries the same wait.',
    allOf: [
      { $ref: `${SCHEMAS}ProblemDetails` },
      {
        type: 'object',
        properties: {
          code: { const: 'RateLimit.Exceeded' },
          error: { const: 'rate_limited' },
          policy: { type: 'string', enum: Object.keys(rateLimitPolicies) },
          dimension: { type: 'string', enum: ['source', 'target', 'client', 'app'] },
          retryAfterSeconds: { type: 'integer', minimum: 1 },
        },
        required: ['error', 'policy', 'dimension', 'retryAfterSeconds'],
      },
    ],
  },
};

const problem = (description: string, schema = 'ProblemDetails') => ({
  description,
  content: { [PROBLEM_CONTENT_TYPE]: { schema: { $ref: `${SCHEMAS}${schema}` } } },
});

export const problemResponses: Record<string, JsonSchema> = {
  BadRequest: problem('Validation.Failed (with `errors`), Request.MalformedJson, or a domain rule of the operation'),
  Unauthorized: problem('Auth.Unauthenticated: no valid session'),
  Forbidden: problem('Auth.Forbidden: the permission in `x-permission` is missing; or Request.CsrfRejected for a cross-origin browser write'),
  NotFound: problem('Unknown or inactive realm host, a hidden surface (bare, without `code`), or a missing resource'),
  Conflict: problem('A name, slug or domain is taken, or dependants block the change'),
  PayloadTooLarge: problem('Request.TooLarge: the body exceeds the limit'),
  UnsupportedMediaType: problem('Request.UnsupportedMediaType: the body is not application/json'),
  TooManyRequests: {
    ...problem('RateLimit.Exceeded', 'RateLimitProblem'),
    headers: { 'Retry-After': { description: 'Seconds to wait before retrying', schema: { type: 'integer', minimum: 1 } } },
  },
};

const SAFE_METHODS = new Set(['GET']);

/** The error responses an operation can answer, keyed by status, as references. */
export function errorResponsesFor(e: AnyEndpoint): Record<string, { $ref: string }> {
  const out: Record<string, { $ref: string }> = {};
  const ref = (name: string) => ({ $ref: `${RESPONSES}${name}` });
  const write = !SAFE_METHODS.has(e.method);
  if (e.body || e.query || e.params) out['400'] = ref('BadRequest');
  if (e.auth === 'user') out['401'] = ref('Unauthorized');
  if (e.permission || write) out['403'] = ref('Forbidden');
  out['404'] = ref('NotFound');
  // Administrative writes meet uniqueness rules and blockers; anonymous writes answer the same
  // whether or not a record exists (anti-enumeration), so they never conflict.
  if (write && e.permission) out['409'] = ref('Conflict');
  if (e.body) {
    out['413'] = ref('PayloadTooLarge');
    out['415'] = ref('UnsupportedMediaType');
  }
  if (e.rateLimit) out['429'] = ref('TooManyRequests');
  return out;
}
