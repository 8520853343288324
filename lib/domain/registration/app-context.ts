import type { RealmRecord } from '../../realm/realm-record';
import { appIdForHost } from '../apps/request-app';

/**
 * The App a registration belongs to: the App whose domain the request came to (the realm's
 * ApplicationDomains), else the built-in App. Its invite codes are the ones accepted. Per-App
 * Settings overrides (SelfRegistration, RegistrationFields) come with App settings management.
 */
export function registrationAppId(realm: RealmRecord, hostHeader: string | null): string {
  return appIdForHost(realm, hostHeader);
}
