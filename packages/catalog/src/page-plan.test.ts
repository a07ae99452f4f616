import { describe, expect, it } from 'vitest';
import { pagesOfPlan, parsePagePlan } from './page-plan.ts';

describe('page plans', () => {
  it('reads pages, ranges (backwards and open), turns and blanks, in order', () => {
    expect(pagesOfPlan('3, 1-2 ,5r90,blank,2,6-,4-3R270', 7)).toEqual([
      { page: 3, turn: 0 },
      { page: 1, turn: 0 },
      { page: 2, turn: 0 },
      { page: 5, turn: 90 },
      { blank: true },
      { page: 2, turn: 0 },
      { page: 6, turn: 0 },
      { page: 7, turn: 0 },
      { page: 4, turn: 270 },
      { page: 3, turn: 270 },
    ]);
  });

  it('refuses what is not a plan, page 0, pages past the end and a plan of blanks', () => {
    for (const bad of ['', 'a', '1,,2', '-3', '2r45', '2 r 90 r90', 'blankr90', '1;2'])
      expect(() => parsePagePlan(bad), bad).toThrow(RangeError);
    expect(() => parsePagePlan('0,1')).toThrow(/page 0/);
    expect(() => parsePagePlan('3-0')).toThrow(/page 0/);
    expect(() => pagesOfPlan('1,9999', 11)).toThrow(/11 pages/);
    expect(() => pagesOfPlan('12-', 11)).toThrow(/11 pages/);
    expect(() => pagesOfPlan('blank', 11)).toThrow(/at least one page/);
  });
});
