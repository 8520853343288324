import { requireUser } from '../../authz/require-permission';
import { AppError } from '../../errors/app-error';
import { publish } from '../../events/bus';
import { eventFrom } from '../../events/event-from';
import { realmDb, type DomainContext } from '../../realm/context';
import type { RealmRecord } from '../../realm/realm-record';
import { limitRate } from '../realm-settings/rate-limit';
import { exportArchive } from './export-archive';
import { readPersonalData } from './personal-data';

// GET /api/auth/export-data (spec 4.6, GDPR Article 20): the signed-in person's data as a ZIP,
// written while it downloads (export-archive.ts). Counted per account as well as per address.

export type Archive = { stream: ReadableStream<Uint8Array>; fileName: string };

/** `<realm>-my-data-<date>.zip`: the realm's slug and the day, nothing about the person. */
export function archiveFileName(realm: RealmRecord, at: Date): string {
  return `${realm.slug}-my-data-${at.toISOString().slice(0, 10)}.zip`;
}

export async function exportMyData(ctx: DomainContext): Promise<Archive> {
  const me = requireUser(ctx);
  await limitRate(ctx, 'data-export', 'target', me.userId);
  const db = await realmDb(ctx.realm);
  const data = await readPersonalData(db, ctx.realm, me.userId);
  if (!data) throw new AppError('Auth.Unauthenticated');
  await publish(eventFrom(ctx, 'account.data-exported', me.userId, { userId: me.userId }));
  return { stream: exportArchive({ db, userId: me.userId, data }), fileName: archiveFileName(ctx.realm, data.exportedAt) };
}
