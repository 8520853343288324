import { oidcStorageKey } from '../db/oidc-payload-key';
import { oidcPayloadSql, type OidcPayloadSql } from '../db/oidc-payload-sql';
import { sha256Hex } from '../crypto/tokens';
import type { RealmDb } from '../db/types';
import type { RealmRecord } from '../realm/realm-record';
import { isMetadataDocumentClientId } from '../domain/client-metadata-documents/client-id';
import { findLiveClient } from '../domain/oauth-clients/live-client';
import { cachedPromise } from '../runtime/cached-promise';
import { clientCache } from './client-cache';
import { engineRequest } from './engine-request';
import { holdCommit, ownWritesCommitted } from './held-writes';
import { fromRegistration, toEngineMetadata, type EngineClientMetadata } from './client-metadata';
import { removeRegistration, storeRegistration } from './registration-store';
import { decodePayload, decodePlainPayload, encodePayload, NEEDS_OPENING, withId, withoutId } from './payload-codec';

// oidc-provider's storage on the realm's own database (issue 4.1). Every model except Client is a
// row of OidcPayload; Client reads the admin-managed OAuthClient table, so clients made in the
// console, by service-account credentials and by dynamic registration are one set. Ids and looked-up
// values are stored as digests and bearer values inside the JSON sealed (payload-codec.ts): every
// method below takes the engine's plain value and maps it the same way.
type Payload = Record<string, unknown> & { grantId?: string; userCode?: string; uid?: string; accountId?: string; clientId?: string; consumed?: number };

export type AdapterContext = {
  realmId: string;
  db: () => Promise<RealmDb>;
  /** The same client when it is open already, at once. */
  dbIfOpen: () => RealmDb | undefined;
  /** The record the engine was built for (rebuilt on every revision). */ realm: RealmRecord;
};

const epoch = (d: Date) => Math.floor(d.getTime() / 1000);

// The models the engine also finds by another column (a session by uid, a device code by user
// code): their rows keep the jti, sealed, since that reader does not have the id. Every other
// record is found only by its id, so its row leaves the jti out (payload-codec.ts).
const FOUND_WITHOUT_ID = new Set(['Session', 'DeviceCode']);

/**
 * A write's commit: handed to the request's held answer where the storage runs writes in call order
 * (held-writes.ts), so the engine goes on at once; otherwise waited for here.
 */
function written(sql: OidcPayloadSql, committed: Promise<void>): Promise<void> | undefined {
  return sql.writesInCallOrder && holdCommit(committed) ? undefined : committed;
}

class PayloadAdapter {
  constructor(
    private readonly model: string,
    private readonly c: AdapterContext,
  ) {}

  async upsert(id: string, payload: Payload, expiresIn?: number): Promise<void> {
    const sql = oidcPayloadSql(await this.c.db());
    await written(
      sql,
      sql.upsert(
        {
          model: this.model,
          id: oidcStorageKey(id),
          payload: await encodePayload(FOUND_WITHOUT_ID.has(this.model) ? payload : withoutId(payload, id)),
          grantId: payload.grantId ? oidcStorageKey(payload.grantId) : null,
          userCode: payload.userCode ? oidcStorageKey(payload.userCode) : null,
          uid: payload.uid ? oidcStorageKey(payload.uid) : null,
          accountId: payload.accountId ?? null,
          clientId: payload.clientId ?? null,
          expiresAt: typeof expiresIn === 'number' ? new Date(Date.now() + expiresIn * 1000) : null,
        },
        new Date(),
      ),
    );
  }

  private async read(where: { id: string } | { uid: string } | { userCode: string }): Promise<Payload | undefined> {
    // Every read of a token request: no turn is waited that need not be (issue 14, promises per request).
    const sql = oidcPayloadSql(this.c.dbIfOpen() ?? (await this.c.db()));
    // The request reads what it wrote itself: its writes held for its answer commit first (held-writes.ts).
    const own = ownWritesCommitted();
    if (own) await own;
    // By primary key when possible: the hot path (tokens, codes, grants, sessions).
    const row =
      'id' in where
        ? await sql.find(this.model, oidcStorageKey(where.id), engineRequest()?.reads)
        : 'uid' in where
          ? await sql.findBy(this.model, 'uid', oidcStorageKey(where.uid))
          : await sql.findBy(this.model, 'userCode', oidcStorageKey(where.userCode));
    if (!row || (row.expiresAt && row.expiresAt.getTime() <= Date.now())) return undefined;
    const plain = decodePlainPayload<Payload>(row.payload);
    const decoded = plain === NEEDS_OPENING ? await decodePayload<Payload>(row.payload) : plain;
    if (!decoded) return undefined;
    const payload = 'id' in where ? withId(decoded, where.id) : decoded;
    if (row.consumedAt) payload.consumed = epoch(row.consumedAt);
    return payload;
  }

  find(id: string) {
    return this.read({ id });
  }

  findByUid(uid: string) {
    return this.read({ uid });
  }

  findByUserCode(userCode: string) {
    return this.read({ userCode });
  }

  async consume(id: string): Promise<void> {
    const sql = oidcPayloadSql(await this.c.db());
    await written(sql, sql.consume(this.model, oidcStorageKey(id), new Date()));
  }

  async destroy(id: string): Promise<void> {
    const sql = oidcPayloadSql(await this.c.db());
    await written(sql, sql.destroy(this.model, oidcStorageKey(id)));
  }

  async revokeByGrantId(grantId: string): Promise<void> {
    const sql = oidcPayloadSql(await this.c.db());
    await written(sql, sql.revokeByGrantId(oidcStorageKey(grantId)));
  }
}

// The engine may change the metadata it is handed while it builds a client, so each lookup gets a
// copy and the cached metadata stays as read. The metadata is JSON by construction (a row's columns
// and its registration JSON, client-metadata.ts), so the copy is a parse of its text, kept beside
// it: 2.5x cheaper than structuredClone, which took 2 % of the OAuth bench's CPU.
const metadataText = new WeakMap<EngineClientMetadata, string>();

function freshCopy(metadata: EngineClientMetadata): EngineClientMetadata {
  let text = metadataText.get(metadata);
  if (text === undefined) metadataText.set(metadata, (text = JSON.stringify(metadata)));
  return JSON.parse(text) as EngineClientMetadata;
}

/**
 * The metadata of a stored client as the client cache keeps it, one object until the client changes
 * (shared by every caller: never to be changed), or null for none. A URL names a Client ID Metadata
 * Document, which is never stored (client-id.ts): the engine fetches it when it finds nothing here
 * (cimd.ts).
 */
export function storedClientMetadata(c: AdapterContext, clientId: string): Promise<EngineClientMetadata | null> {
  // The cached promise itself, not one wrapped around it: this runs for every client lookup.
  if (isMetadataDocumentClientId(clientId)) return Promise.resolve(null);
  return cachedPromise(clientCache(), `${c.realmId}:${clientId}`, async () => {
    const live = await findLiveClient(await c.db(), clientId);
    return live ? toEngineMetadata(live.row, live.secretExpiresAt) : null;
  });
}

class ClientAdapter {
  constructor(private readonly c: AdapterContext) {}

  async find(clientId: string): Promise<EngineClientMetadata | undefined> {
    const found = await storedClientMetadata(this.c, clientId);
    return found ? freshCopy(found) : undefined;
  }

  /**
   * Dynamic client registration (RFC 7591) and its management (RFC 7592), written by the
   * registrant's domain operations (registration-store.ts), whose events drop the cached client here
   * and on every other instance.
   */
  async upsert(clientId: string, metadata: Record<string, unknown>): Promise<void> {
    const db = await this.c.db();
    const existing = await db.oAuthClient.findUnique({ where: { clientId }, select: { secretHash: true } });
    const presented = typeof metadata.client_secret === 'string' ? metadata.client_secret : null;
    // The engine hands back what find() gave it (the digest) when the secret did not change.
    const secretHash = presented === null ? null : presented === existing?.secretHash ? presented : sha256Hex(presented);
    await storeRegistration(this.c.realm, fromRegistration({ ...metadata, client_id: clientId }, secretHash), existing !== null);
  }

  async destroy(clientId: string): Promise<void> {
    await removeRegistration(this.c.realm, clientId);
  }

  async consume(): Promise<void> {}
  async findByUid(): Promise<undefined> {
    return undefined;
  }
  async findByUserCode(): Promise<undefined> {
    return undefined;
  }
  async revokeByGrantId(): Promise<void> {}
}

/** The adapter factory oidc-provider is configured with, bound to one realm. */
export function realmAdapter(c: AdapterContext) {
  return (model: string) => (model === 'Client' ? new ClientAdapter(c) : new PayloadAdapter(model, c));
}
