import { describe, expect, it } from 'vitest';
import { labelPlace, labelsOf, numberingOf } from './number-preview.ts';

const letter = { width: 612, height: 792 };

describe('numberingOf', () => {
  it('reads the fields, previewing a field not yet a number as its default', () => {
    expect(numberingOf({ position: 'top-left', format: 'roman-upper', start: '4', fontSize: '', margin: 'x' })).toEqual(
      {
        position: 'top-left',
        format: 'roman-upper',
        start: 4,
        fontSize: 11,
        margin: 10,
        direction: 'ltr',
      },
    );
  });
});

describe('labelsOf', () => {
  it('numbers the chosen pages in order from the start, the total being the last number', () => {
    const n = numberingOf({ format: 'page-of-total', start: '5' });
    expect([...labelsOf([2, 3, 9], n)]).toEqual([
      [2, 'Page 5 of 7'],
      [3, 'Page 6 of 7'],
      [9, 'Page 7 of 7'],
    ]);
    expect(labelsOf([1, 2], numberingOf({ format: 'roman-lower', start: '9' })).get(2)).toBe('x');
  });
});

describe('labelPlace', () => {
  it('puts the number the margin away from the corner asked for', () => {
    const mm10 = (10 * 72) / 25.4;
    const bottom = labelPlace(numberingOf({}), letter);
    expect(bottom).toMatchObject({ x: 306, anchor: 'middle', size: 11 });
    expect(bottom.y).toBeCloseTo(792 - mm10 - 0.207 * 11, 5);
    const top = labelPlace(numberingOf({ position: 'top-right', fontSize: '20' }), letter);
    expect(top).toMatchObject({ x: 612 - mm10, anchor: 'end', size: 20 });
    expect(top.y).toBeCloseTo(mm10 + 0.718 * 20, 5);
  });
  it('mirrors the corner for a right-to-left document, and keeps a small page’s number small', () => {
    expect(labelPlace(numberingOf({ position: 'bottom-left', direction: 'rtl' }), letter).anchor).toBe('end');
    expect(labelPlace(numberingOf({ fontSize: '72' }), { width: 100, height: 100 }).size).toBe(10);
  });
});
