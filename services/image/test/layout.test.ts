import { describe, expect, it } from 'vitest';
import { defaultDpi, displayedSize, maxPageSide, placeImage, usableDpi } from '../src/pdf/layout.ts';
import { num } from '../src/pdf/writer.ts';

/** Where the matrix sends a point of the image's unit square. */
const apply = (m: readonly number[], x: number, y: number) => [
  m[0]! * x + m[2]! * y + m[4]!,
  m[1]! * x + m[3]! * y + m[5]!,
];

describe('page layout', () => {
  it('fits the page to the image at its resolution, 72 dpi when unknown or absurd', () => {
    expect(placeImage({ width: 300, height: 150, orientation: 1, dpi: 150 }, 'fit')).toMatchObject({
      width: 144,
      height: 72,
    });
    expect(placeImage({ width: 300, height: 150, orientation: 1, dpi: undefined }, 'fit')).toMatchObject({
      width: 300,
      height: 150,
    });
    expect(usableDpi(1)).toBe(defaultDpi);
    expect(usableDpi(100_000)).toBe(defaultDpi);
  });

  it('keeps pages within 200 inches, scaling the image down', () => {
    const p = placeImage({ width: 40_000, height: 10_000, orientation: 1, dpi: 72 }, 'fit');
    expect(p.width).toBe(maxPageSide);
    expect(p.height).toBe(maxPageSide / 4);
  });

  it('turns the page for orientations 5 to 8', () => {
    expect(displayedSize(300, 100, 6)).toEqual({ width: 100, height: 300 });
    const p = placeImage({ width: 300, height: 100, orientation: 6, dpi: 72 }, 'fit');
    expect([p.width, p.height]).toEqual([100, 300]);
    // Orientation 6: the stored image's top-left corner (0, 1 in PDF image space) ends at the top right.
    expect(apply(p.matrix, 0, 1)).toEqual([100, 300]);
    // Its top-right corner (1, 1) ends at the bottom right.
    expect(apply(p.matrix, 1, 1)).toEqual([100, 0]);
  });

  it('centres the image on paper inside a half-inch margin, the paper turned to follow it', () => {
    const p = placeImage({ width: 1000, height: 500, orientation: 1, dpi: 300 }, 'letter');
    expect([p.width, p.height]).toEqual([792, 612]);
    const [x0, y0] = apply(p.matrix, 0, 0);
    const [x1, y1] = apply(p.matrix, 1, 1);
    expect(x0).toBe(36);
    expect(792 - x1!).toBeCloseTo(36, 6);
    expect(y0! - 0).toBeCloseTo(612 - y1!, 6);
    expect((x1! - x0!) / (y1! - y0!)).toBeCloseTo(2, 6);
  });

  it('writes numbers as PDF does: no exponent, at most four decimals', () => {
    expect(num(1e-7)).toBe('0');
    expect(num(-0.00001)).toBe('0');
    expect(num(595.2756)).toBe('595.2756');
    expect(num(12)).toBe('12');
    expect(num(1 / 3)).toBe('0.3333');
  });
});
