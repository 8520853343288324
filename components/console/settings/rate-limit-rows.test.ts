import { describe, expect, it } from 'vitest';
import { realmSettingsSchema } from '@/lib/domain/realm-settings/schema';
import { builtInLimit, describeLimit, dimensionChoices, newRow, overrideRowsSchema, overridesOf, rowsOf } from './rate-limit-rows';

const one = { Points: 5, DurationSeconds: 60 };

describe('rate-limit override rows', () => {
  it('offers only the dimensions the policy counts', () => {
    expect(dimensionChoices('reset-password')).toEqual(['Source']);
    expect(dimensionChoices('login')).toEqual(['Source', 'Target', 'App']);
    expect(dimensionChoices('nope')).toEqual([]);
    expect(builtInLimit('login', 'Target')).toEqual({ points: 10, durationSeconds: 300 });
    expect(builtInLimit('login', 'Client')).toBeUndefined();
    expect(describeLimit({ points: 10, durationSeconds: 900 })).toBe('10 per 15 min');
  });

  it('turns the document into rows and back', () => {
    const doc = { 'forgot-password': { App: one, Source: one }, login: { Target: one } };
    const rows = rowsOf(doc);
    expect(rows.map((r) => `${r.Policy}/${r.Dimension}`)).toEqual(['login/Target', 'forgot-password/Source', 'forgot-password/App']);
    expect(overridesOf(rows)).toEqual(doc);
    // What the form sends, the server accepts.
    expect(realmSettingsSchema.safeParse({ RateLimits: overridesOf(rows) }).success).toBe(true);
  });

  it('refuses a dimension the policy does not count and a second row of the same pair', () => {
    const r = overrideRowsSchema.safeParse([
      { Policy: 'reset-password', Dimension: 'Target', ...one },
      { Policy: 'login', Dimension: 'Source', ...one },
      { Policy: 'login', Dimension: 'Source', ...one },
      { Policy: 'log-in', Dimension: 'Source', ...one },
    ]);
    expect(r.success).toBe(false);
    expect(r.error?.issues.map((i) => i.path.join('.'))).toEqual(['0.Dimension', '2.Dimension', '3.Policy']);
  });

  it('starts a new row on a pair not overridden yet, at its built-in ceiling', () => {
    const first = newRow([]);
    expect(first).toEqual({ Policy: 'bootstrap', Dimension: 'Source', Points: 10, DurationSeconds: 900 });
    expect(newRow([first])).toEqual({ Policy: 'login', Dimension: 'Source', Points: 30, DurationSeconds: 60 });
  });
});
