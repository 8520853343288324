import { describe, expect, it } from 'vitest';
import { effectiveFor, normalizeBoundTo, unknownApps } from './bound-to';

describe('BoundTo', () => {
  it('normalises: lower-case, deduplicated, "*" absorbs the rest, [] stays dormant', () => {
    expect(normalizeBoundTo(['CRM', 'crm', ' billing '])).toEqual(['billing', 'crm']);
    expect(normalizeBoundTo(['crm', '*'])).toEqual(['*']);
    expect(normalizeBoundTo([])).toEqual([]);
  });

  it('finds slugs that name no App', () => {
    expect(unknownApps(['*', 'crm', 'nope'], ['gatehouse', 'crm'])).toEqual(['nope']);
  });

  it('resolves the Apps a group is effective for', () => {
    const apps = ['gatehouse', 'crm', 'billing'];
    expect(effectiveFor(['*'], apps)).toEqual(['billing', 'crm', 'gatehouse']);
    expect(effectiveFor(['crm', 'gone'], apps)).toEqual(['crm']);
    expect(effectiveFor([], apps)).toEqual([]);
  });
});
