import type { RealmPrisma, RealmTx } from '../../db/types';
import { AppError } from '../../errors/app-error';
import type { DomainContext } from '../../realm/context';
import { flag } from '../flags/registry';
import { RealmFeatures } from '../realm-settings/features';

// Passkey rows and their wire shape. A passkey is valid only for the RP ID it was made for: rows
// whose rpId is not the realm's current PrimaryDomain are invalid (spec 2.1) and are removed by the
// primary-domain subscriber; until then no read or sign-in treats them as passkeys.
export const passkeyColumns = {
  id: true,
  userId: true,
  credentialId: true,
  publicKey: true,
  counter: true,
  transports: true,
  deviceType: true,
  backedUp: true,
  rpId: true,
  displayName: true,
  createdAt: true,
  lastUsedAt: true,
} as const satisfies RealmPrisma.PasskeySelect;

export type PasskeyRow = RealmPrisma.PasskeyGetPayload<{ select: typeof passkeyColumns }>;

export type PasskeyDto = {
  Id: string;
  DisplayName: string;
  CreatedAt: Date;
  LastUsedAt: Date | null;
  DeviceType: string | null;
  BackedUp: boolean;
  Transports: string[];
};

export function parseTransports(json: string): string[] {
  try {
    const v = JSON.parse(json) as unknown;
    return Array.isArray(v) ? v.filter((t): t is string => typeof t === 'string') : [];
  } catch {
    return [];
  }
}

export function toPasskeyDto(row: PasskeyRow): PasskeyDto {
  return {
    Id: row.id,
    DisplayName: row.displayName,
    CreatedAt: row.createdAt,
    LastUsedAt: row.lastUsedAt,
    DeviceType: row.deviceType,
    BackedUp: row.backedUp,
    Transports: parseTransports(row.transports),
  };
}

/** The user's passkeys that are valid in this realm now (their RP ID is the PrimaryDomain). */
export function validPasskeysOf(db: RealmTx, ctx: DomainContext, userId: string): Promise<PasskeyRow[]> {
  return db.passkey.findMany({ where: { userId, rpId: ctx.realm.primaryDomain }, select: passkeyColumns, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] });
}

/** 403 SignIn.MethodDisabled unless the realm has passkeys on (SignIn.Passkeys). */
export async function assertPasskeysEnabled(ctx: DomainContext): Promise<void> {
  if (!(await flag(ctx, RealmFeatures.Passkeys))) throw new AppError('SignIn.MethodDisabled', { detail: 'Passkeys are not enabled in this realm.' });
}
