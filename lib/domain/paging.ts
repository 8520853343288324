import { z } from 'zod';

// List paging, search and sorting (spec 4.9, CONTRACT.md): page defaults to 1, pageSize to 25, and
// a pageSize above 200 is answered as 200.
const MAX_PAGE_SIZE = 200;

export const pageQuerySchema = z.object({
  page: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce
    .number()
    .int()
    .min(1)
    .default(25)
    .transform((n) => Math.min(n, MAX_PAGE_SIZE)),
  search: z.string().max(200).optional(),
  sortBy: z.string().max(64).optional(),
  sortDescending: z
    .enum(['true', 'false', '1', '0'])
    .optional()
    .transform((v) => v === 'true' || v === '1'),
});
export type PageQuery = z.infer<typeof pageQuerySchema>;

/**
 * The entry of a list's sort table named by `sortBy` (matched case-insensitively; the table's keys
 * are lower case), or the default's when it names none. Own keys only: `sortBy=__proto__` or
 * `constructor` is a client string, not a way to reach Object.prototype.
 */
export function sortEntry<T>(table: Readonly<Record<string, T>>, sortBy: string | undefined, fallback: string): T {
  const key = sortBy?.toLowerCase();
  const chosen = key !== undefined && Object.hasOwn(table, key) ? key : fallback;
  return table[chosen];
}

/** True when `sortBy` names an entry of the table (so a list can keep its own default direction otherwise). */
export function isSortKey(table: Readonly<Record<string, unknown>>, sortBy: string | undefined): boolean {
  return sortBy !== undefined && Object.hasOwn(table, sortBy.toLowerCase());
}

export type Page<T> = { items: T[]; totalCount: number; page: number; pageSize: number };

type PageNumber = Pick<PageQuery, 'page' | 'pageSize'>;
type PageWindow = { skip: number; take: number };

const windowOf = (q: PageNumber): PageWindow => ({ skip: (q.page - 1) * q.pageSize, take: q.pageSize });

/**
 * One page of a stored list: the total and the page's rows, read side by side. `rows` receives the
 * window (Prisma's `skip` and `take`) to spread into its query; it may also shape the rows it read.
 */
export async function readPage<T>(q: PageNumber, count: () => Promise<number>, rows: (window: PageWindow) => Promise<T[]>): Promise<Page<T>> {
  const [totalCount, items] = await Promise.all([count(), rows(windowOf(q))]);
  return { items, totalCount, page: q.page, pageSize: q.pageSize };
}

/** One page of a list already assembled in memory. */
export function pageOfAll<T>(all: T[], q: PageNumber): Page<T> {
  const { skip, take } = windowOf(q);
  return { items: all.slice(skip, skip + take), totalCount: all.length, page: q.page, pageSize: q.pageSize };
}

export function mapPage<T, U>(p: Page<T>, f: (t: T) => U): Page<U> {
  return { ...p, items: p.items.map(f) };
}

/** Response schema of a list endpoint wrapping `item`. */
export function pageSchema<T extends z.ZodType>(item: T) {
  return z.object({ items: z.array(item), totalCount: z.number(), page: z.number(), pageSize: z.number() });
}
