// Wire shapes of the realm endpoints (spec 2.1, 2.2, 4.8), as the browser receives them.
export type Realm = {
  Id: string;
  Slug: string;
  DisplayName: string;
  Description?: string;
  Domains: string[];
  ApplicationDomains: Record<string, string>;
  PrimaryDomain: string;
  IsControlPlane: boolean;
  IsActive: boolean;
  CreatedAt: string;
  UpdatedAt?: string;
};

export type AdminInvite = { UserName: string; Email: string; ExpiresAt: string; MagicLinkUrl: string };

export type CreateRealmResult = { Realm: Realm; InitialAdminInvite?: AdminInvite | null };

export const realmKeys = {
  all: ['realms'] as const,
  list: (q: object) => ['realms', 'list', q] as const,
  one: (slug: string) => ['realms', 'one', slug] as const,
};

/** One domain per line (or separated by commas or spaces) -> a clean list. */
export function parseDomains(text: string): string[] {
  return [...new Set(text.split(/[\s,]+/).map((d) => d.trim().toLowerCase()).filter(Boolean))];
}

export const SLUG_PATTERN = /^[a-z][a-z0-9-]{1,61}[a-z0-9]$/;

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
