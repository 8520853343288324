import type { RealmRecord } from '../../realm/realm-record';
import { appIdForHost } from '../apps/request-app';

/**
 * The App a registration belongs to: the App whose address the request came to (the realm's
 * ApplicationDomains, set by the App's Settings.Origin.Subdomain), else the built-in App. Its
 * invite codes are the ones accepted, and its SelfRegistration and RegistrationFields overrides
 * apply (apps/app-settings.ts).
 */
export function registrationAppId(realm: RealmRecord, hostHeader: string | null): string {
  return appIdForHost(realm, hostHeader);
}
