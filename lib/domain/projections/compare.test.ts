import { describe, expect, it } from 'vitest';
import { counted, differingKeys, stableJson } from './compare';

describe('stableJson', () => {
  it('ignores the order of object keys and of Map entries, not of arrays', () => {
    expect(stableJson({ a: 1, b: { c: 2, d: 3 } })).toBe(stableJson({ b: { d: 3, c: 2 }, a: 1 }));
    expect(
      stableJson(
        new Map([
          ['x', 1],
          ['y', 2],
        ]),
      ),
    ).toBe(
      stableJson(
        new Map([
          ['y', 2],
          ['x', 1],
        ]),
      ),
    );
    expect(stableJson([1, 2])).not.toBe(stableJson([2, 1]));
  });
});

describe('differingKeys', () => {
  it('names the keys whose values differ, including keys only one side has', () => {
    expect(differingKeys({ a: 1, b: [1], c: 3 }, { a: 1, b: [2], d: 4 })).toEqual(['b', 'c', 'd']);
    expect(differingKeys({ a: { x: 1, y: 2 } }, { a: { y: 2, x: 1 } })).toEqual([]);
  });
});

describe('counted', () => {
  it('says one or many', () => {
    expect(counted(1, 'entry', 'entries')).toBe('1 entry');
    expect(counted(3, 'route')).toBe('3 routes');
  });
});
