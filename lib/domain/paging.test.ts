import { describe, expect, it } from 'vitest';
import { isSortKey, sortEntry } from './paging';

describe('sortEntry', () => {
  const table = { name: 'by-name', createdat: 'by-created' };

  it('matches the sort field case-insensitively', () => {
    expect(sortEntry(table, 'createdAt', 'name')).toBe('by-created');
    expect(sortEntry(table, undefined, 'name')).toBe('by-name');
  });

  it.each(['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf', 'unknown'])('falls back to the default for %s', (sortBy) => {
    expect(sortEntry(table, sortBy, 'name')).toBe('by-name');
    expect(isSortKey(table, sortBy)).toBe(false);
  });
});
