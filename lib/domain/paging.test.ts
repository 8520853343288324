import { describe, expect, it } from 'vitest';
import { isSortKey, pageOfAll, readPage, sortEntry } from './paging';

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

describe('readPage and pageOfAll', () => {
  it('read the window the page names, with the total', async () => {
    const all = Array.from({ length: 7 }, (_, i) => i);
    const page = await readPage(
      { page: 2, pageSize: 3 },
      async () => all.length,
      async ({ skip, take }) => all.slice(skip, skip + take),
    );
    expect(page).toEqual({ items: [3, 4, 5], totalCount: 7, page: 2, pageSize: 3 });
    expect(pageOfAll(all, { page: 3, pageSize: 3 })).toEqual({ items: [6], totalCount: 7, page: 3, pageSize: 3 });
    expect(pageOfAll(all, { page: 4, pageSize: 3 }).items).toEqual([]);
  });
});
