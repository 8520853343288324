import { errorCatalog } from './catalog';
import { DPOP_SIGNING_ALGS } from '../crypto/dpop-algorithms';
import { isAppError } from './app-error';
import { logError } from '../log/logger';
import { isStorageUnavailable, logStorageUnavailable, STORAGE_RETRY_AFTER_SECONDS } from './storage-unavailable';

// RFC 7807 bodies. One function turns any thrown value into the body a client may see; internal
// detail goes to the log only (CONTRACT.md "Wire rules").
export type ProblemBody = {
  type: string;
  title: string;
  status: number;
  detail?: string;
  code?: string;
  errors?: Record<string, string[]>;
  [extension: string]: unknown;
};

export type Problem = { status: number; body: ProblemBody; headers: Record<string, string> };

const DPOP_ALGS_PARAM = `algs="${DPOP_SIGNING_ALGS.join(' ')}"`;

const typeFor = (status: number) => `https://httpstatuses.io/${status}`;

export function problemFromError(error: unknown, context?: string): Problem {
  if (isAppError(error)) {
    const body: ProblemBody = {
      type: typeFor(error.status),
      title: errorCatalog[error.code].title,
      status: error.status,
      ...(error.extensions ?? {}),
    };
    if (error.detail) body.detail = error.detail;
    if (!error.anonymous) body.code = error.code;
    if (error.errors) body.errors = error.errors;
    const headers: Record<string, string> = {};
    if (error.retryAfterSeconds !== undefined) headers['Retry-After'] = String(error.retryAfterSeconds);
    // RFC 6750 section 3: bearer failures name the error in WWW-Authenticate.
    if (error.code === 'Auth.InvalidToken') headers['WWW-Authenticate'] = 'Bearer error="invalid_token"';
    if (error.code === 'Auth.InsufficientScope') headers['WWW-Authenticate'] = 'Bearer error="insufficient_scope"';
    // RFC 9449 7.1: DPoP failures answer with the DPoP scheme and the algorithms a proof may use.
    if (error.code === 'Auth.DpopRequired') headers['WWW-Authenticate'] = `DPoP error="invalid_token", ${DPOP_ALGS_PARAM}`;
    if (error.code === 'Auth.InvalidDpopProof') headers['WWW-Authenticate'] = `DPoP error="invalid_dpop_proof", ${DPOP_ALGS_PARAM}`;
    if (error.code === 'Auth.TokenNotDpopBound') headers['WWW-Authenticate'] = 'Bearer error="invalid_token"';
    return { status: error.status, body, headers };
  }
  if (isStorageUnavailable(error)) {
    logStorageUnavailable(error);
    const status = errorCatalog['Server.Unavailable'].status;
    return {
      status,
      body: { type: typeFor(status), title: errorCatalog['Server.Unavailable'].title, status, code: 'Server.Unavailable' },
      headers: { 'Retry-After': String(STORAGE_RETRY_AFTER_SECONDS) },
    };
  }
  logError(context ?? 'unhandled error', error);
  return {
    status: 500,
    body: { type: typeFor(500), title: errorCatalog['Server.Error'].title, status: 500, code: 'Server.Error' },
    headers: {},
  };
}

export const PROBLEM_CONTENT_TYPE = 'application/problem+json';
