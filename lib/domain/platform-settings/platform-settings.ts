import { requirePermission } from '../../authz/require-permission';
import { REALM_ADMIN } from '../../authz/catalog';
import { getGlobalDb } from '../../db/global-db';
import { notFound } from '../../errors/app-error';
import { publish } from '../../events/bus';
import { eventFrom } from '../../events/event-from';
import type { DomainContext } from '../../realm/context';
import { platformSettingsSchema, type PlatformRetention, type PlatformSettings } from './schema';

// The PlatformSettings singleton of the global store. Read uncached: the purge job reads it once a
// pass and administrators now and then, and every instance sees a change at once.
const ROW_ID = 'platform';

function parseDocument(text: string | undefined): { stored: Record<string, unknown>; settings: PlatformSettings } {
  let stored: Record<string, unknown> = {};
  try {
    const v: unknown = text ? JSON.parse(text) : {};
    if (v && typeof v === 'object' && !Array.isArray(v)) stored = v as Record<string, unknown>;
  } catch {
    // An unreadable document falls back to the defaults rather than stopping the purge job.
  }
  const parsed = platformSettingsSchema.safeParse(stored);
  return { stored, settings: parsed.success ? parsed.data : platformSettingsSchema.parse({}) };
}

/** The platform's effective settings: the stored document with every default applied. */
export async function platformSettings(): Promise<PlatformSettings> {
  const db = await getGlobalDb();
  const row = await db.platformSettings.findUnique({ where: { id: ROW_ID }, select: { document: true } });
  return parseDocument(row?.document).settings;
}

/** GET /api/admin/platform-audit/retention: control plane only, for those who may read the platform audit. */
export async function readPlatformRetention(ctx: DomainContext): Promise<PlatformRetention> {
  if (!ctx.realm.isControlPlane) throw notFound();
  await requirePermission(ctx, 'control-plane:platform-audit:read', 'control-plane');
  return (await platformSettings()).Retention;
}

/**
 * PUT /api/admin/platform-audit/retention: replaces the retention section whole (spec 4.9), other
 * sections of the document stay. Platform administrators only (realm:admin of the control plane):
 * a shorter retention deletes audit history at the next purge.
 */
export async function replacePlatformRetention(ctx: DomainContext, input: { PlatformAuditDays?: number | null }): Promise<PlatformRetention> {
  if (!ctx.realm.isControlPlane) throw notFound();
  await requirePermission(ctx, REALM_ADMIN, 'control-plane');
  const retention = { PlatformAuditDays: input.PlatformAuditDays ?? undefined };
  const db = await getGlobalDb();
  const saved = await db.$transaction(async (tx) => {
    const row = await tx.platformSettings.findUnique({ where: { id: ROW_ID }, select: { document: true } });
    const document = { ...parseDocument(row?.document).stored, Retention: retention.PlatformAuditDays === undefined ? {} : retention };
    const text = JSON.stringify(document);
    await tx.platformSettings.upsert({
      where: { id: ROW_ID },
      update: { document: text, updatedAt: new Date() },
      create: { id: ROW_ID, document: text, updatedAt: new Date() },
    });
    return platformSettingsSchema.parse(document).Retention;
  });
  await publish(eventFrom(ctx, 'platform-settings.updated', ROW_ID, { platformAuditDays: saved.PlatformAuditDays }));
  return saved;
}
