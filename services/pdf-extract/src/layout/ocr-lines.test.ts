import { describe, expect, it } from 'vitest';
import { line } from '../../test/layout.ts';
import { layoutPage } from './blocks.ts';
import type { Frag, Para } from './types.ts';

/** A word run of an OCR'd page: a piece of text at (x0, top), read by the engine on line `ocrLine`. */
const word = (text: string, top: number, x0: number, ocrLine?: string): Frag => ({
  ...line(text, top, x0).frags[0]!,
  ...(ocrLine !== undefined && { ocrLine }),
});

const lines = (frags: Frag[]) => {
  const raw = { width: 612, height: 792, frags, rules: [], boxes: [], images: [], imageCount: 0, strokes: [] };
  const page = layoutPage({ number: 1, raw: { ...raw, imageBoxes: [], turn: 0 }, figures: [] });
  return page.blocks.flatMap((b) => (b as Para).lines.map((l) => l.text));
};

describe('words an OCR engine read as one line', () => {
  // A paragraph whose last line is short, a wide space on the line above it over that line's end.
  const page = (ocr: boolean) => [
    word('sign. A sole Director of a company without a Secretary', 100, 72, ocr ? '3.1.1' : undefined),
    word('can also sign. Please say the office held', 100, 360, ocr ? '3.1.1' : undefined),
    word('appropriate space and crossing out the office.', 112, 72, ocr ? '3.1.2' : undefined),
  ];

  it('stay one line: no white band between them is taken for a gutter', () => {
    expect(lines(page(true))).toEqual([
      'sign. A sole Director of a company without a Secretary can also sign. Please say the office held',
      'appropriate space and crossing out the office.',
    ]);
  });

  it('without an OCR engine to say so, such a band parts two columns', () => {
    expect(lines(page(false))[0]).toBe('sign. A sole Director of a company without a Secretary');
  });
});
