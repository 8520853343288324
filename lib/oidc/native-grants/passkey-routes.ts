import type { IncomingMessage, ServerResponse } from 'node:http';
import { tokenSubjectActor } from '../../domain/access-tokens/bearer-token';
import { presentedTokenOf, verifyPresentedToken } from '../../domain/access-tokens/presented-token';
import { MANAGEMENT_AUDIENCE, PASSKEYS_SCOPE } from '../../domain/oauth-scopes/gatehouse-scopes';
import { domainContext, type DomainContext } from '../../realm/context';
import { NATIVE_GRANT_TYPES, requireNativeClient } from '../../domain/native-grants/native-grants';
import { appIdForHost } from '../../domain/apps/request-app';
import { deleteOwnPasskey } from '../../domain/passkeys/delete-passkey';
import { listOwnPasskeys } from '../../domain/passkeys/list-passkeys';
import { passkeyLoginOptions } from '../../domain/passkeys/login-with-passkey';
import { limitRate, limitRequestRate } from '../../domain/realm-settings/rate-limit';
import { AppError } from '../../errors/app-error';
import { CLIENT_IP_HEADER } from '../../web/client-ip';
import { toWire } from '../../web/casing';
import { decodePathSegment } from '../../web/path-segment';
import type { RealmRecord } from '../../realm/realm-record';
import { sendJson, sendProblem } from '../../runtime/node-problem';

// The passkey half of the native grants (spec 4.4): `POST /connect/passkey/begin` opens a
// usernameless WebAuthn ceremony for a client (its `ceremony_id` and options go to the app, the
// assertion comes back to /connect/token), and the bearer-authenticated `GET /connect/passkey` and
// `DELETE /connect/passkey/{id}` let the token's subject list and revoke their own passkeys.
export const PASSKEY_PREFIX = '/connect/passkey';
const MAX_BODY = 16 * 1024;

async function readForm(req: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY) throw new AppError('Request.TooLarge');
    chunks.push(chunk as Buffer);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  if (!text) return {};
  if (/json/i.test(String(req.headers['content-type'] ?? ''))) {
    try {
      const value: unknown = JSON.parse(text);
      return value && typeof value === 'object' ? (value as Record<string, unknown>) : {};
    } catch {
      throw new AppError('Request.MalformedJson');
    }
  }
  return Object.fromEntries(new URLSearchParams(text));
}

// node:http joins repeated headers it does not know with ", " (which the proof check refuses as two
// proofs); an array never comes for `dpop`, but is handled the same way.
const headerValue = (value: string | string[] | undefined): string | undefined => (Array.isArray(value) ? value.join(', ') : value);

function context(realm: RealmRecord, req: IncomingMessage): DomainContext {
  return domainContext(
    realm,
    { kind: 'anonymous' },
    { ip: String(req.headers[CLIENT_IP_HEADER] ?? 'unknown'), userAgent: req.headers['user-agent'], appId: appIdForHost(realm, req.headers.host) },
  );
}

async function begin(realm: RealmRecord, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const body = await readForm(req);
  const clientId = body.client_id ?? body.ClientId;
  if (typeof clientId !== 'string' || !clientId) throw new AppError('Validation.Failed', { errors: { client_id: ['Required.'] } });
  const ctx = context(realm, req);
  const client = await requireNativeClient(ctx, clientId, NATIVE_GRANT_TYPES.passkey);
  ctx.appId = client.appId;
  await limitRequestRate(ctx, 'passkey-login');
  await limitRate(ctx, 'passkey-login', 'client', client.clientId);
  const options = await passkeyLoginOptions(ctx, null);
  sendJson(res, 200, { ceremony_id: options.challenge, options });
}

/**
 * The person a bearer token names, as a domain context acting for them. Only a token meant for
 * Gatehouse itself (the Management API audience) that carries `gatehouse.passkeys` is admitted: an
 * openid-only token, one of any client, or one issued for another API (which that API could replay
 * here) must not list or remove the person's passkeys. A DPoP-bound token comes as `DPoP` with its
 * proof for this method and path (presented-token.ts), as on every route that takes a token.
 */
async function subjectContext(realm: RealmRecord, req: IncomingMessage, pathname: string): Promise<DomainContext> {
  const presented = presentedTokenOf(req.headers.authorization);
  if (!presented) throw new AppError('Auth.InvalidToken');
  const verified = await verifyPresentedToken(realm, presented, {
    method: req.method ?? 'GET',
    host: req.headers.host,
    pathname,
    authorization: req.headers.authorization,
    dpop: headerValue(req.headers.dpop),
  });
  if (!verified.subject) throw new AppError('Auth.InvalidToken');
  if (!verified.audiences.includes(MANAGEMENT_AUDIENCE) || !verified.scopes.includes(PASSKEYS_SCOPE)) {
    throw new AppError('Auth.InsufficientScope', { detail: `Requires a token for ${MANAGEMENT_AUDIENCE} with scope ${PASSKEYS_SCOPE}.` });
  }
  const actor = await tokenSubjectActor(realm, verified);
  if (!actor) throw new AppError('Auth.InvalidToken');
  const ctx = context(realm, req);
  ctx.actor = actor;
  return ctx;
}

export async function handlePasskeyRoute(realm: RealmRecord, pathname: string, req: IncomingMessage, res: ServerResponse): Promise<void> {
  try {
    if (pathname === `${PASSKEY_PREFIX}/begin` && req.method === 'POST') return await begin(realm, req, res);
    if (pathname === PASSKEY_PREFIX && req.method === 'GET') {
      const ctx = await subjectContext(realm, req, pathname);
      return sendJson(res, 200, toWire(await listOwnPasskeys(ctx)));
    }
    const id = pathname.startsWith(`${PASSKEY_PREFIX}/`) ? decodePathSegment(pathname.slice(PASSKEY_PREFIX.length + 1), 'id') : '';
    if (id && !id.includes('/') && req.method === 'DELETE') {
      const ctx = await subjectContext(realm, req, pathname);
      await deleteOwnPasskey(ctx, id);
      res.writeHead(204, { 'cache-control': 'no-store' });
      res.end();
      return;
    }
    throw new AppError('Request.NotFound');
  } catch (e) {
    sendProblem(res, e);
  }
}
