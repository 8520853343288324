import type { positionSchema } from '@/lib/domain/positions/schemas';
import type { WireOf } from '@/lib/http/wire';

// The wire shape of /api/position (spec 4.7 "Positions") as the browser receives it.
export type Position = WireOf<typeof positionSchema>;

export const positionKeys = {
  all: ['positions'] as const,
  list: (q: object) => ['positions', 'list', q] as const,
  one: (id: string) => ['positions', 'one', id] as const,
};
