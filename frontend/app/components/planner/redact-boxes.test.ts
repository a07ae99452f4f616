import { describe, expect, it } from 'vitest';
import { boxesOf, boxesText, boxOfRect, rectOfBox } from './redact-boxes.ts';

const a4 = { width: 595, height: 842 };

describe('redaction boxes', () => {
  it('reads the field, and nothing from text that is not a list of boxes', () => {
    expect(boxesOf('[{"page":1,"x":0.1,"y":0.2,"width":0.3,"height":0.4}]')).toEqual([
      { page: 1, x: 0.1, y: 0.2, width: 0.3, height: 0.4 },
    ]);
    expect(boxesOf('')).toEqual([]);
    expect(boxesOf('[{"page":')).toEqual([]);
    expect(boxesOf('{"page":1}')).toEqual([]);
    expect(boxesOf('[{"page":"1"}]')).toEqual([]);
    expect(boxesText([])).toBe('');
  });

  it('turns points into fractions of the page and back, never past its edge', () => {
    const box = boxOfRect(2, { left: 59.5, top: 84.2, width: 119, height: 42.1 }, a4);
    expect(box).toEqual({ page: 2, x: 0.1, y: 0.1, width: 0.2, height: 0.05 });
    expect(rectOfBox(box, a4).left).toBeCloseTo(59.5);
    const edge = boxOfRect(1, { left: 590, top: 0, width: 5, height: 842 }, a4);
    expect(edge.x + edge.width).toBeLessThanOrEqual(1);
    expect(edge.y + edge.height).toBeLessThanOrEqual(1);
  });
});
