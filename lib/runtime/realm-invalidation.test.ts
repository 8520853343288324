import { describe, expect, it } from 'vitest';
import { readAnnouncement } from './realm-invalidation';

describe('cache relay announcements', () => {
  it('name their sender and realm', () => {
    expect(readAnnouncement(JSON.stringify({ origin: 'a', realmId: 'r1' }))).toEqual({ origin: 'a', realmId: 'r1' });
  });

  it('drop everything when they name no realm, or come from an older release as a bare id', () => {
    expect(readAnnouncement(JSON.stringify({ origin: 'a', realmId: null }))).toEqual({ origin: 'a', realmId: null });
    expect(readAnnouncement('5f0c1c5e-instance')).toEqual({ origin: '5f0c1c5e-instance', realmId: null });
    expect(readAnnouncement('{"realmId":"r1"}')).toEqual({ origin: '{"realmId":"r1"}', realmId: null });
    expect(readAnnouncement(JSON.stringify({ origin: 'a', realmId: 7 }))).toEqual({ origin: 'a', realmId: null });
  });
});
