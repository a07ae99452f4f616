import { describe, expect, it } from 'vitest';
import { boxText, nudged, pointOnPage, pointsPer, rectBetween, rectOfBox, rectOfMargins } from './crop-box.ts';

const a4 = { width: 595.28, height: 841.89 };
const letter = { width: 612, height: 792 };
const mm = pointsPer.mm;

describe('the box field', () => {
  it('reads left, top, width, height in the unit as points', () => {
    expect(rectOfBox('10, 20, 100,150', 'pt')).toEqual({ left: 10, top: 20, width: 100, height: 150 });
    const r = rectOfBox('25.4,0,50.8,254', 'mm')!;
    expect([r.left, r.top, r.width, r.height].map((n) => Math.round(n * 1000) / 1000)).toEqual([72, 0, 144, 720]);
  });
  it('gives nothing for what is not four numbers', () => {
    for (const text of ['', '1,2,3', '1,2,3,4,5', '1,-2,3,4', '1,2,x,4', '1e2,2,3,4']) {
      expect(rectOfBox(text, 'pt'), text).toBeUndefined();
    }
  });
  it('writes a rectangle in tenths of the unit, and reads back to within a twentieth', () => {
    const rect = { left: 72, top: 100, width: 300.3, height: 500 };
    expect(boxText(rect, 'pt', letter)).toBe('72, 100, 300.3, 500');
    expect(boxText(rect, 'mm', letter)).toBe('25.4, 35.3, 105.9, 176.4');
    const back = rectOfBox(boxText(rect, 'mm', letter), 'mm')!;
    for (const k of ['left', 'top', 'width', 'height'] as const)
      expect(Math.abs(back[k] - rect[k])).toBeLessThan(0.05 * mm);
  });
  it('never reaches past the page, so the tool takes a box drawn to its very edge', () => {
    const whole = { left: 0, top: 0, ...a4 };
    const text = boxText(whole, 'mm', a4);
    expect(text).toBe('0, 0, 210, 297');
    const r = rectOfBox(text, 'mm')!;
    expect(r.left + r.width).toBeLessThanOrEqual(a4.width + 0.5);
    expect(r.top + r.height).toBeLessThanOrEqual(a4.height + 0.5);
    expect(boxText({ left: 611.99, top: 0, width: 0, height: 10 }, 'pt', letter)).toBe('612, 0, 0.1, 10');
  });
});

describe('margins', () => {
  it('leave the page less each side, in points', () => {
    expect(rectOfMargins({ top: '10', right: '20', bottom: '', left: '0' }, 'pt', letter)).toEqual({
      left: 0,
      top: 10,
      width: 592,
      height: 782,
    });
    expect(rectOfMargins({ top: '10', right: '0', bottom: '0', left: '0' }, 'mm', letter)!.top).toBeCloseTo(28.35, 2);
  });
  it('give nothing when they leave nothing or are not numbers', () => {
    expect(rectOfMargins({ top: '400', right: '0', bottom: '400', left: '0' }, 'pt', letter)).toBeUndefined();
    expect(rectOfMargins({ top: 'x', right: '0', bottom: '0', left: '0' }, 'pt', letter)).toBeUndefined();
  });
});

describe('drawing with the pointer', () => {
  const bounds = { left: 100, top: 50, width: 306, height: 396 }; // Letter shown at half size
  it('maps a point on the screen to page points from the top-left, kept on the page', () => {
    expect(pointOnPage({ x: 100, y: 50 }, bounds, letter)).toEqual({ x: 0, y: 0 });
    expect(pointOnPage({ x: 253, y: 248 }, bounds, letter)).toEqual({ x: 306, y: 396 });
    expect(pointOnPage({ x: 0, y: 1000 }, bounds, letter)).toEqual({ x: 0, y: 792 });
  });
  it('spans the rectangle whichever way it is drawn', () => {
    expect(rectBetween({ x: 300, y: 40 }, { x: 100, y: 240 })).toEqual({ left: 100, top: 40, width: 200, height: 200 });
  });
});

describe('the keyboard', () => {
  const rect = { left: 10, top: 10, width: 100, height: 100 };
  it('moves with an arrow, kept on the page', () => {
    expect(nudged(rect, 'ArrowRight', false, 5, letter)).toEqual({ ...rect, left: 15 });
    expect(nudged(rect, 'ArrowUp', false, 50, letter)).toEqual({ ...rect, top: 0 });
    expect(nudged({ ...rect, left: 510 }, 'ArrowRight', false, 5, letter)).toEqual({ ...rect, left: 512 });
  });
  it('resizes with Shift: right and down grow it, left and up shrink it, never below a step', () => {
    expect(nudged(rect, 'ArrowRight', true, 5, letter)).toEqual({ ...rect, width: 105 });
    expect(nudged(rect, 'ArrowUp', true, 5, letter)).toEqual({ ...rect, height: 95 });
    expect(nudged({ ...rect, width: 3 }, 'ArrowLeft', true, 5, letter)).toEqual({ ...rect, width: 5 });
    expect(nudged({ ...rect, left: 500 }, 'ArrowRight', true, 50, letter)).toEqual({ ...rect, left: 500, width: 112 });
  });
  it('ignores other keys', () => {
    expect(nudged(rect, 'Enter', false, 5, letter)).toBeUndefined();
  });
});
