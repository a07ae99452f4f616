import { describe, expect, it } from 'vitest';
import { allPages, moved, planOf, rangesOf, sheetsOfPlan, turned, type Sheet } from './page-list.ts';

const p = (page: number, turn: 0 | 90 | 180 | 270 = 0): Sheet => ({ page, turn });

describe('planOf', () => {
  it('writes runs as ranges and turned pages with their turn', () => {
    expect(planOf([p(1), p(2), p(3), p(4), p(5), p(8), p(6, 90)])).toBe('1-5,8,6r90');
  });
  it('writes the untouched document as one range', () => {
    expect(planOf(allPages(300))).toBe('1-300');
  });
  it('keeps backward runs, runs turned alike, blanks and repeats', () => {
    expect(planOf([p(9), p(8), p(7), p(1, 180), p(2, 180), { blank: true }, p(2), p(2)])).toBe('9-7,1-2r180,blank,2,2');
  });
  it('breaks a run where the turn changes', () => {
    expect(planOf([p(1), p(2, 90), p(3, 90), p(4)])).toBe('1,2-3r90,4');
  });
  it('writes nothing for no pages', () => {
    expect(planOf([])).toBe('');
  });
});

describe('sheetsOfPlan', () => {
  it('reads a plan back into the pages it makes', () => {
    expect(sheetsOfPlan('3,1-2r90,blank', 3)).toEqual([p(3), p(1, 90), p(2, 90), { blank: true }]);
  });
  it('shows every page for an empty plan', () => {
    expect(sheetsOfPlan(' ', 2)).toEqual([p(1), p(2)]);
  });
  it('gives nothing for text that is not a plan, or that reaches past the end', () => {
    expect(sheetsOfPlan('1,x', 3)).toBeUndefined();
    expect(sheetsOfPlan('1-9', 3)).toBeUndefined();
  });
  it('round-trips through planOf', () => {
    for (const plan of ['1-5,8,6r90', '9-7,blank,2', '4-', '1,3,2r270']) {
      expect(sheetsOfPlan(planOf(sheetsOfPlan(plan, 9)!), 9)).toEqual(sheetsOfPlan(plan, 9));
    }
  });
});

describe('rangesOf', () => {
  it('sorts, drops repeats and joins runs', () => {
    expect(rangesOf([5, 1, 2, 3, 3, 9, 10])).toBe('1-3,5,9-10');
    expect(rangesOf([])).toBe('');
  });
});

describe('moved and turned', () => {
  it('moves an item to a new position', () => {
    expect(moved(['a', 'b', 'c', 'd'], 0, 2)).toEqual(['b', 'c', 'a', 'd']);
    expect(moved(['a', 'b', 'c', 'd'], 3, 0)).toEqual(['d', 'a', 'b', 'c']);
  });
  it('turns a page a quarter clockwise, round to upright', () => {
    expect(turned(p(2, 270))).toEqual(p(2));
    expect(turned(p(2, 90))).toEqual(p(2, 180));
    expect(turned({ blank: true })).toEqual({ blank: true });
  });
});
