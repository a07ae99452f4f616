import { validateHeaderValue } from 'node:http';
import { describe, expect, it } from 'vitest';
import { propertiesHeader, propertiesHeaderMax } from './properties.ts';

/** What a client reads back, after checking that Node would send the header as it is. */
function sent(header: string): Record<string, unknown> {
  validateHeaderValue('X-Quire-Properties', header);
  expect(header.length).toBeLessThanOrEqual(propertiesHeaderMax);
  return JSON.parse(header) as Record<string, unknown>;
}

const perPage = (n: number) => Array.from({ length: n }, (_, i) => ({ page: i + 1, words: 100 + i, fonts: ['Arial'] }));

describe('propertiesHeader', () => {
  it('sends small properties whole', () => {
    const properties = { bytes: 1234, pages: 4, checks: ['opens', 'pages'], angle: 90 };
    expect(sent(propertiesHeader(properties))).toEqual(properties);
  });

  it('drops the bulkiest fields first, names them, and keeps what was checked', () => {
    const properties = {
      bytes: 99,
      pages: 500,
      checks: ['opens', 'pages', 'text', 'pixels'],
      perPage: perPage(500),
      fonts: Array.from({ length: 60 }, (_, i) => `Font-${i}`),
      format: 'docx',
    };
    expect(JSON.stringify(properties).length).toBeGreaterThan(propertiesHeaderMax);
    // The per-page list alone is over the bound; without it, the font list fits and stays.
    expect(sent(propertiesHeader(properties))).toEqual({
      bytes: 99,
      pages: 500,
      checks: ['opens', 'pages', 'text', 'pixels'],
      fonts: properties.fonts,
      format: 'docx',
      truncated: ['perPage'],
    });
    // Two fields each over the bound alone: both go, largest first.
    const two = { bytes: 1, a: 'x'.repeat(4100), b: 'y'.repeat(4200) };
    expect(sent(propertiesHeader(two))).toEqual({ bytes: 1, truncated: ['b', 'a'] });
  });

  it('keeps the essential fields alone, or the marker alone, when nothing else helps', () => {
    const many = Object.fromEntries(Array.from({ length: 400 }, (_, i) => [`field${i}`, i]));
    expect(sent(propertiesHeader({ bytes: 5, pages: 2, checks: ['opens'], ...many }))).toEqual({
      bytes: 5,
      pages: 2,
      checks: ['opens'],
      truncated: true,
    });
    expect(sent(propertiesHeader({ bytes: 5, checks: Array(2000).fill('opens') }))).toEqual({ truncated: true });
  });

  it('escapes every character a header cannot carry, and reads back the same', () => {
    const properties = { title: 'Überschrift — 報告 😀', control: '\u007f\u0001', name: 'a"b\\c' };
    const header = propertiesHeader(properties);
    expect(header).toMatch(/^[\x20-\x7e]+$/);
    expect(sent(header)).toEqual(properties);
  });

  it('counts the bound in characters sent, escapes included', () => {
    const wide = { bytes: 1, pages: 1, title: '報'.repeat(1000) };
    // 1000 characters, 6000 once escaped: over the bound, so dropped.
    expect(sent(propertiesHeader(wide))).toEqual({ bytes: 1, pages: 1, truncated: ['title'] });
  });
});
