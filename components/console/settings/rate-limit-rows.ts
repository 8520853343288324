import { z } from 'zod';
import { settingRules } from '@/lib/domain/realm-settings/schema';
import {
  dimensionKey,
  overridableDimensions,
  rateLimitPolicies,
  rateLimitPolicyNames,
  type DimensionLimit,
  type RateLimitDimension,
} from '@/lib/rate-limit/policies';
import type { RealmSettings } from './types';

// The rate-limit overrides as the settings form edits them: one row per policy and dimension,
// where the document keeps them as policy -> dimension -> limit. The choices are the server's
// (overridableDimensions), so the form cannot offer what the server would refuse.

export type OverrideRow = { Policy: string; Dimension: string; Points: number; DurationSeconds: number };

/** The dimensions a row of `policy` may choose, as the settings name them (`Source`). */
export function dimensionChoices(policy: string): string[] {
  return overridableDimensions(policy).map(dimensionKey);
}

/** The built-in ceiling a row overrides, if the policy counts that dimension. */
export function builtInLimit(policy: string, dimension: string): DimensionLimit | undefined {
  const d = overridableDimensions(policy).find((x) => dimensionKey(x) === dimension);
  return d ? (rateLimitPolicies[policy as keyof typeof rateLimitPolicies] as Partial<Record<RateLimitDimension, DimensionLimit>>)[d] : undefined;
}

export const overrideRowsSchema = z
  .array(
    z.object({
      Policy: z.string().min(1, 'Choose a policy.'),
      Dimension: z.string().min(1, 'Choose what to count by.'),
      Points: settingRules.ratePoints,
      DurationSeconds: settingRules.rateDurationSeconds,
    }),
  )
  .superRefine((rows, ctx) => {
    const seen = new Set<string>();
    rows.forEach((row, i) => {
      if (!rateLimitPolicyNames.includes(row.Policy as (typeof rateLimitPolicyNames)[number]))
        ctx.addIssue({ code: 'custom', path: [i, 'Policy'], message: 'Choose a policy from the list.' });
      else if (!dimensionChoices(row.Policy).includes(row.Dimension))
        ctx.addIssue({ code: 'custom', path: [i, 'Dimension'], message: `${row.Policy} does not count by ${row.Dimension}.` });
      const key = `${row.Policy}/${row.Dimension}`;
      if (seen.has(key)) ctx.addIssue({ code: 'custom', path: [i, 'Dimension'], message: 'Another row already overrides this policy and dimension.' });
      seen.add(key);
    });
  });

/** The document's overrides as rows, in the policies' order and each policy's dimension order. */
export function rowsOf(overrides: RealmSettings['RateLimits']): OverrideRow[] {
  const rows: OverrideRow[] = [];
  const byPolicy = new Map(Object.entries(overrides));
  const policies = [...rateLimitPolicyNames.filter((p) => byPolicy.has(p)), ...[...byPolicy.keys()].filter((p) => !rateLimitPolicyNames.includes(p as never))];
  for (const policy of policies) {
    const limits = (byPolicy.get(policy) ?? {}) as Record<string, { Points: number; DurationSeconds: number } | undefined>;
    const order = dimensionChoices(policy);
    const keys = [...order.filter((k) => limits[k]), ...Object.keys(limits).filter((k) => !order.includes(k) && limits[k])];
    for (const dimension of keys)
      rows.push({ Policy: policy, Dimension: dimension, Points: limits[dimension]!.Points, DurationSeconds: limits[dimension]!.DurationSeconds });
  }
  return rows;
}

/** Rows back to the document's shape (a policy with several rows keeps them all). */
export function overridesOf(rows: readonly OverrideRow[]): RealmSettings['RateLimits'] {
  const out = new Map<string, Record<string, { Points: number; DurationSeconds: number }>>();
  for (const row of rows)
    out.set(row.Policy, { ...(out.get(row.Policy) ?? {}), [row.Dimension]: { Points: row.Points, DurationSeconds: row.DurationSeconds } });
  return Object.fromEntries<RealmSettings['RateLimits'][string]>(out);
}

/** A new row: the first policy without an override of its first dimension, at its built-in ceiling. */
export function newRow(rows: readonly OverrideRow[]): OverrideRow {
  const taken = new Set(rows.map((r) => `${r.Policy}/${r.Dimension}`));
  for (const policy of rateLimitPolicyNames)
    for (const dimension of dimensionChoices(policy)) {
      if (taken.has(`${policy}/${dimension}`)) continue;
      const limit = builtInLimit(policy, dimension)!;
      return { Policy: policy, Dimension: dimension, Points: limit.points, DurationSeconds: limit.durationSeconds };
    }
  const limit = builtInLimit('login', 'Source')!;
  return { Policy: 'login', Dimension: 'Source', Points: limit.points, DurationSeconds: limit.durationSeconds };
}

/** "10 per 15 min" */
export function describeLimit(limit: DimensionLimit): string {
  const s = limit.durationSeconds;
  const window = s % 3600 === 0 ? `${s / 3600} h` : s % 60 === 0 ? `${s / 60} min` : `${s} s`;
  return `${limit.points} per ${window}`;
}
