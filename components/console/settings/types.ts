import type { realmSettingsSchema } from '@/lib/domain/realm-settings/schema';
import type { WireOf } from '@/lib/http/wire';

// GET/PUT /api/realm-settings: the realm's effective settings, as the API answers them (derived from
// lib/domain/realm-settings/schema.ts, the schema the answer is parsed through).
export type RealmSettings = WireOf<typeof realmSettingsSchema>;

export const settingsKey = ['realm-settings'] as const;
