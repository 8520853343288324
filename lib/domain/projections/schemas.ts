import { z } from 'zod';

// Answers of the maintenance routes (spec 4.7 "Maintenance"): one entry per derived store the
// product keeps, in plain words and without personal data.

export const storeReportSchema = z.object({
  Name: z.string(),
  Consistent: z.boolean(),
  Differences: z.array(z.string()),
});

export const consistencyReportSchema = z.object({
  Consistent: z.boolean(),
  Stores: z.array(storeReportSchema),
});
export type ConsistencyReport = z.infer<typeof consistencyReportSchema>;

export const rebuildReportSchema = z.object({
  /** True when every store is consistent after the rebuild (a host another realm holds stays a difference). */
  Consistent: z.boolean(),
  Stores: z.array(
    storeReportSchema.extend({
      /** What the rebuild changed. */
      Changes: z.array(z.string()),
    }),
  ),
});
export type RebuildReport = z.infer<typeof rebuildReportSchema>;
