import type { adminInviteSchema } from '@/lib/domain/invites/schemas';
import type { createRealmResponseSchema, realmSchema } from '@/lib/domain/realms/schemas';
import type { applyResultSchema } from '@/lib/domain/manifests/schema';
import type { WireOf } from '@/lib/http/wire';

// Wire shapes of the realm endpoints (spec 2.1, 2.2, 4.8) as the browser receives them, derived from
// the API's response schemas.
export type Realm = WireOf<typeof realmSchema>;
export type AdminInvite = WireOf<typeof adminInviteSchema>;
export type CreateRealmResult = WireOf<typeof createRealmResponseSchema>;
/** POST /api/admin/realms/import answers the create answer plus what applying the manifest did. */
export type ImportRealmResult = CreateRealmResult & Partial<WireOf<typeof applyResultSchema>>;

export const realmKeys = {
  all: ['realms'] as const,
  list: (q: object) => ['realms', 'list', q] as const,
  one: (slug: string) => ['realms', 'one', slug] as const,
};

/** One domain per line (or separated by commas or spaces) -> a clean list. */
export function parseDomains(text: string): string[] {
  return [
    ...new Set(
      text
        .split(/[\s,]+/)
        .map((d) => d.trim().toLowerCase())
        .filter(Boolean),
    ),
  ];
}

/** A slug suggestion from a display name: "Acme Corp" -> "acme-corp". */
export function slugFrom(name: string): string {
  const s = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^[^a-z]+/, '')
    .replace(/-+$/, '')
    .slice(0, 63)
    .replace(/-+$/, '');
  return s;
}
