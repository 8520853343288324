import { oidcStorageKey } from '../../db/oidc-payload-key';
import type { RealmDb } from '../../db/types';
import { realmDb } from '../../realm/context';
import type { RealmRecord } from '../../realm/realm-record';
import { isMetadataDocumentClientId } from './client-id';

// A client described by a metadata document has no OAuthClient row: the engine fetches the document
// and keeps it in its own process memory. The hosted consent page, rendered by Next (possibly on
// another instance), still has to name the client, so the OAuth engine remembers the name the
// document declares in the realm's OidcPayload table (model below, keyed like the engine's records)
// when it sends a person to that page; the purge job drops it once expired.
const MODEL = 'ClientMetadataDocument';
const MAX_NAME = 200;

/** Remembers what the consent page shows of a metadata-document client, for `ttlSeconds`. */
export async function rememberMetadataDocumentClient(realm: RealmRecord, clientId: string, clientName: unknown, ttlSeconds: number): Promise<void> {
  if (!isMetadataDocumentClientId(clientId)) return;
  const name = typeof clientName === 'string' ? clientName.trim().slice(0, MAX_NAME) : '';
  const db = await realmDb(realm);
  const row = { payload: JSON.stringify({ clientName: name || null }), clientId, expiresAt: new Date(Date.now() + ttlSeconds * 1000) };
  const key = { model: MODEL, id: oidcStorageKey(clientId) };
  await db.oidcPayload.upsert({ where: { model_id: key }, create: { ...key, ...row }, update: row });
}

/** The remembered client of a metadata document: its declared name (null when it declares none). */
export async function rememberedMetadataDocumentClient(db: RealmDb, clientId: string): Promise<{ clientName: string | null } | null> {
  if (!isMetadataDocumentClientId(clientId)) return null;
  const row = await db.oidcPayload.findUnique({
    where: { model_id: { model: MODEL, id: oidcStorageKey(clientId) } },
    select: { payload: true, expiresAt: true },
  });
  if (!row || (row.expiresAt && row.expiresAt.getTime() <= Date.now())) return null;
  try {
    const value = JSON.parse(row.payload) as { clientName?: unknown };
    return { clientName: typeof value.clientName === 'string' && value.clientName ? value.clientName : null };
  } catch {
    return null;
  }
}
