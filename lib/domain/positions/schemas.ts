import { z } from 'zod';
import { pageQuerySchema } from '../paging';

// Wire shapes of /api/position (spec 4.7 "Positions", resource `position`): a place where terminals
// act (a till, a kiosk). Terminals are OAuth clients created with terminal intent (`PositionId`).

const name = z
  .string()
  .trim()
  .min(1, 'Enter a name.')
  .max(200, 'Use at most 200 characters.')
  // `*`: an empty name is answered by min's message alone.
  .regex(/^[^\p{C}]*$/u, 'Use no control characters.');
const description = z.string().max(2000, 'Use at most 2000 characters.').nullish();

export const createPositionSchema = z.object({
  Name: name,
  Description: description,
  /** Default true. An inactive position takes no new terminals. */
  IsActive: z.boolean().nullish(),
});
export type CreatePositionInput = z.infer<typeof createPositionSchema>;

// Merge-patch (spec 4.9): Name is the natural key (null or blank = unchanged), Description clears
// with null or "", IsActive is only set with true or false.
export const updatePositionSchema = z.object({
  Name: z.union([name, z.literal('')]).nullish(),
  Description: description,
  IsActive: z.boolean().nullish(),
});
export type UpdatePositionInput = z.infer<typeof updatePositionSchema>;

export const positionListQuerySchema = pageQuerySchema;

export const positionIdParamsSchema = z.object({ id: z.string().min(1).max(64) });

export const positionSchema = z.object({
  Id: z.string(),
  Name: z.string(),
  Description: z.string().nullish(),
  IsActive: z.boolean(),
  /** How many OAuth clients are this position's terminals. */
  TerminalCount: z.number(),
  /** The ClientIds of its terminals (GET {id} only). */
  TerminalClientIds: z.array(z.string()).optional(),
  CreatedAt: z.date(),
  UpdatedAt: z.date().nullish(),
});
export type PositionDto = z.infer<typeof positionSchema>;
