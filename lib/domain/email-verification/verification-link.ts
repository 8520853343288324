import { publicOrigin } from '../../config/env';
import type { RealmRecord } from '../../realm/realm-record';

/** `<realm origin><page>?token=<token>`: the page calls the matching verify endpoint (CONTRACT.md). */
export function tokenLink(realm: RealmRecord, page: string, token: string): string {
  const url = new URL(page, publicOrigin(realm.primaryDomain));
  url.searchParams.set('token', token);
  return url.toString();
}
