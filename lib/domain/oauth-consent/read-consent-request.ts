import { oidcStorageKey } from '../../db/oidc-payload-key';
import type { RealmDb } from '../../db/types';
import { realmDb, type DomainContext } from '../../realm/context';
import { metadataDocumentHost } from '../client-metadata-documents/client-id';
import { rememberedMetadataDocumentClient } from '../client-metadata-documents/remembered-clients';
import { pendingConsent } from './consent-payload';

// What the hosted consent page (/consent?uid=…) shows (issue 4.2): the application asking and the
// permissions it asks for, in the words of the realm's OAuth scopes. The interaction lives in the
// engine's storage, whose cookie the page does not receive (that cookie is scoped to
// /connect/interaction/{uid}), so it is read from the realm's database by uid. Only the person the
// engine signed in for this interaction may see it: the uid travels in a URL, and whoever else
// opens it learns nothing, not even the client's name.

export type ConsentPermission = { name: string; title: string; description: string | null };

export type ConsentRequest = {
  uid: string;
  /**
   * `publishedBy`: for a client described by its own metadata document (its client_id an https URL),
   * the host that publishes the document. Its name is the document's own claim, so the page says
   * where it comes from.
   */
  client: { clientId: string; displayName: string; description: string | null; publishedBy?: string };
  permissions: ConsentPermission[];
  /** Profile details asked for one by one (the `claims` parameter). */
  claims: string[];
};

/** `openid` only says "sign me in"; the scope's admin-facing name would mean nothing here. */
const SIGN_IN: Omit<ConsentPermission, 'name'> = { title: 'Sign you in', description: null };

export async function readConsentRequest(ctx: DomainContext, uid: string): Promise<ConsentRequest | null> {
  if (ctx.actor.kind !== 'user' || !uid || uid.length > 200) return null;
  const db = await realmDb(ctx.realm);
  const row = await db.oidcPayload.findUnique({
    where: { model_id: { model: 'Interaction', id: oidcStorageKey(uid) } },
    select: { payload: true, expiresAt: true },
  });
  if (!row || (row.expiresAt && row.expiresAt.getTime() <= Date.now())) return null;
  const pending = pendingConsent(row.payload, Math.floor(Date.now() / 1000));
  if (!pending || pending.accountId !== ctx.actor.userId) return null;

  const [client, scopes] = await Promise.all([
    consentClient(db, pending.clientId),
    db.oAuthScope.findMany({ where: { name: { in: pending.scopes } }, select: { name: true, displayName: true, description: true } }),
  ]);
  if (!client) return null;
  const byName = new Map(scopes.map((s) => [s.name, s]));
  const permissions = pending.scopes.map((name): ConsentPermission => {
    if (name === 'openid') return { name, ...SIGN_IN };
    const scope = byName.get(name);
    return { name, title: scope?.displayName || name, description: scope?.description || null };
  });
  return { uid, client, permissions, claims: pending.claims };
}

async function consentClient(db: RealmDb, clientId: string): Promise<ConsentRequest['client'] | null> {
  const publishedBy = metadataDocumentHost(clientId);
  if (publishedBy) {
    // The engine remembered the document's name when it sent the person here (remembered-clients.ts).
    const remembered = await rememberedMetadataDocumentClient(db, clientId);
    return remembered ? { clientId, displayName: remembered.clientName ?? publishedBy, description: null, publishedBy } : null;
  }
  const row = await db.oAuthClient.findUnique({ where: { clientId }, select: { clientId: true, displayName: true, description: true, isActive: true } });
  return row && row.isActive ? { clientId: row.clientId, displayName: row.displayName, description: row.description } : null;
}
