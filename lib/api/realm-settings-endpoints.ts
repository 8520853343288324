import { z } from 'zod';
import { patchRealmSettings, readRealmSettings, replaceRealmSettings } from '../domain/realm-settings/realm-settings';
import { realmSettingsSchema } from '../domain/realm-settings/schema';
import { defineEndpoint } from '../http/endpoint';

// /api/realm-settings (issue 3 item 11): read and written by realm administrators.
const common = { path: '/api/realm-settings', tags: ['Realm settings'], auth: 'user', permission: 'realm:admin', response: realmSettingsSchema } as const;

export const getRealmSettingsEndpoint = defineEndpoint({
  ...common,
  method: 'GET',
  summary: "The realm's effective settings (defaults applied)",
  handler: async ({ ctx }) => readRealmSettings(ctx),
});

export const putRealmSettingsEndpoint = defineEndpoint({
  ...common,
  method: 'PUT',
  summary: 'Replace the realm settings (absent fields take their defaults)',
  body: z.record(z.string(), z.unknown()),
  handler: async ({ ctx, body }) => replaceRealmSettings(ctx, body),
});

export const patchRealmSettingsEndpoint = defineEndpoint({
  ...common,
  method: 'PATCH',
  summary: 'Merge-patch the realm settings section by section (null returns a field to its default)',
  body: z.record(z.string(), z.unknown()),
  handler: async ({ ctx, body }) => patchRealmSettings(ctx, body),
});
