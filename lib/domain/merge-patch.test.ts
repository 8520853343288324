import { describe, expect, it } from 'vitest';
import { optionalText, patchFlag, patchKey, patchList, patchText, sentFields } from './merge-patch';
import { parseStringList, toJsonList } from '../db/json-list';

describe('merge-patch helpers (spec 4.9)', () => {
  it('optional text: omitted unchanged, null and blank clear, values trimmed', () => {
    expect(patchText(undefined)).toBeUndefined();
    expect(patchText(null)).toBeNull();
    expect(patchText('   ')).toBeNull();
    expect(patchText('')).toBeNull();
    expect(patchText('  Ada ')).toBe('Ada');
    expect(optionalText(undefined)).toBeNull();
  });

  it('natural keys never clear', () => {
    expect(patchKey(undefined)).toBeUndefined();
    expect(patchKey(null)).toBeUndefined();
    expect(patchKey(' ')).toBeUndefined();
    expect(patchKey(' ada ')).toBe('ada');
  });

  it('booleans ignore null', () => {
    expect(patchFlag(null)).toBeUndefined();
    expect(patchFlag(undefined)).toBeUndefined();
    expect(patchFlag(false)).toBe(false);
  });

  it('lists: omitted unchanged, null and [] clear, otherwise replaced and deduplicated', () => {
    expect(patchList(undefined)).toBeUndefined();
    expect(patchList(null)).toEqual([]);
    expect(patchList([])).toEqual([]);
    expect(patchList(['a', 'b', 'a'])).toEqual(['a', 'b']);
  });

  it('lists the fields a patch sent', () => {
    expect(sentFields({ A: 1, B: undefined, C: null })).toEqual(['A', 'C']);
  });
});

describe('JSON list columns', () => {
  it('round-trips and tolerates malformed text', () => {
    expect(parseStringList(toJsonList(['x', 'y', 'x']))).toEqual(['x', 'y']);
    expect(parseStringList('not json')).toEqual([]);
    expect(parseStringList('{"a":1}')).toEqual([]);
    expect(parseStringList('["a",2]')).toEqual(['a']);
    expect(parseStringList(null)).toEqual([]);
  });
});
