import { describe, expect, it } from 'vitest';
import { CHANGES } from '@/lib/realtime/changes';
import { EVERYTHING, LIVE_QUERY_PREFIXES, prefixesOf } from './resources';

// Resources the hub reports that no console page shows (nothing to refetch).
const NOT_SHOWN = new Set(['signing-key']);

describe('hub resource to query keys', () => {
  it('maps every resource the hub reports to the prefixes of the pages that show it', () => {
    const resources = new Set(Object.values(CHANGES).flatMap((c) => (c ? [c.resource] : [])));
    for (const resource of resources) {
      if (resource === EVERYTHING || NOT_SHOWN.has(resource)) continue;
      expect(LIVE_QUERY_PREFIXES[resource], resource).toBeDefined();
    }
  });

  it('refreshes everything after a manifest and nothing for an unknown resource', () => {
    expect(prefixesOf({ Resource: 'realm-config', Action: 'updated', Id: 'r1' })).toBe('all');
    expect(prefixesOf({ Resource: 'user', Action: 'created', Id: 'u1' })).toContainEqual(['users']);
    expect(prefixesOf({ Resource: 'signing-key', Action: 'updated' })).toEqual([]);
  });
});
