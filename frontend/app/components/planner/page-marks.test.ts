import { describe, expect, it } from 'vitest';
import { marksOf, toggledRanges } from './page-marks.ts';

describe('marksOf', () => {
  it('reads ranges as the server does: runs, repeats, open ends, any order', () => {
    expect([...marksOf('1,3-5', 9)!]).toEqual([1, 3, 4, 5]);
    expect([...marksOf(' 7- , 2,2 ', 9)!]).toEqual([2, 7, 8, 9]);
  });
  it('marks nothing for an empty field', () => {
    expect(marksOf('  ', 4)!.size).toBe(0);
  });
  it('gives nothing for text that is not ranges of this document', () => {
    expect(marksOf('1,x', 9)).toBeUndefined();
    expect(marksOf('3-12', 9)).toBeUndefined();
    expect(marksOf('5-3', 9)).toBeUndefined();
    expect(marksOf('0', 9)).toBeUndefined();
  });
});

describe('toggledRanges', () => {
  it('adds a page and writes the marks as compact ranges', () => {
    expect(toggledRanges(new Set([2]), 3)).toBe('2-3');
    expect(toggledRanges(new Set([1, 2, 4]), 3)).toBe('1-4');
    expect(toggledRanges(new Set(), 7)).toBe('7');
  });
  it('removes a marked page, splitting its run', () => {
    expect(toggledRanges(new Set([1, 2, 3]), 2)).toBe('1,3');
    expect(toggledRanges(new Set([5]), 5)).toBe('');
  });
});
