import { describe, expect, it } from 'vitest';
import { paraText } from '../render/common.ts';
import { classifyHeadings } from './analyze.ts';
import { endsEarly, isLeaderLine, markContinuations, markFurniture, markHyphens } from './flow.ts';
import { line, page, para } from '../../test/layout.ts';
import type { PageLayout, Para } from './types.ts';

const full = 'x'.repeat(90); // 450 pt wide: the column's width

describe('endsEarly', () => {
  it('ends a paragraph where the next word would have fitted, whatever the line length', () => {
    // Ragged text: a line 60 pt short, but the next word needs 66 pt: it wrapped.
    expect(endsEarly(line('x'.repeat(78), 100), line(`${'w'.repeat(12)} more`, 112), 72 + 450)).toBe(false);
    // A short last line: the next line's first word would have fitted after it.
    expect(endsEarly(line('the end.', 100), line('Next paragraph', 112), 72 + 450)).toBe(true);
  });

  it('carries on after a hyphen or a comma', () => {
    expect(endsEarly(line('import-', 100), line('ance of it', 112), 72 + 450)).toBe(false);
    expect(endsEarly(line('one,', 100), line('two', 112), 72 + 450)).toBe(false);
  });
});

describe('isLeaderLine', () => {
  it('knows a table of contents entry by its leader and page number', () => {
    expect(isLeaderLine('Introduction .......... 3')).toBe(true);
    expect(isLeaderLine('Contributors.................2')).toBe(true);
    expect(isLeaderLine('Preface . . . . . . . xii')).toBe(true);
    expect(isLeaderLine('It costs 3.5 dollars, or 12')).toBe(false);
  });
});

describe('markHyphens', () => {
  const doc = (a: string, b: string, elsewhere = 'nothing here') =>
    [page(1, [para([line(a, 100), line(b, 112)]), para([line(elsewhere, 140)])])] as PageLayout[];
  const text = (pages: PageLayout[]) => {
    markHyphens(pages);
    return paraText(pages[0]!.blocks[0] as Para);
  };

  it('joins a word the typesetter split when the next line goes on in lower case', () => {
    expect(text(doc('of great import-', 'ance to us'))).toBe('of great importance to us');
  });

  it('keeps the hyphen before a capital, and of a compound the document writes elsewhere', () => {
    expect(text(doc('the Franco-', 'Prussian war'))).toBe('the Franco-Prussian war');
    expect(text(doc('after COVID-', '19 came'))).toBe('after COVID-19 came');
  });

  it('joins before a capital when the document writes the word whole elsewhere', () => {
    expect(text(doc('we built Trace-', 'Monkey here', 'TraceMonkey is fast'))).toBe('we built TraceMonkey here');
    expect(text(doc('a well-', 'known case', 'it is well-known'))).toBe('a well-known case');
  });

  it('leaves a dash set apart from its words alone', () => {
    expect(text(doc('this -', 'that'))).toBe('this - that');
  });
});

describe('markFurniture', () => {
  it('marks a footer that comes back on three pages, numbers aside, and keeps body text', () => {
    const pages = [1, 2, 3].map((n) =>
      page(n, [para([line('Body text of the page', 100)]), para([line(`Page ${n} of 3`, 760)])]),
    );
    markFurniture(pages, 10);
    expect(pages.map((p) => (p.blocks[1] as Para).furniture)).toEqual([true, true, true]);
    expect(pages.some((p) => (p.blocks[0] as Para).furniture)).toBe(false);
  });

  it("marks facing pages' mirrored footers, the page number on the outer side of each, as one", () => {
    const pages = [3, 4, 5, 6].map((n) =>
      page(n, [
        para([line('Body text of the page', 100)]),
        para([line(n % 2 ? `LO 5.0 Guide | ${n}` : `${n} | LO 5.0 Guide`, 760)]),
      ]),
    );
    markFurniture(pages, 10);
    expect(pages.map((p) => (p.blocks[1] as Para).furniture)).toEqual([true, true, true, true]);
  });

  it('keeps a repeated line that is all its page holds, and one larger than the body text', () => {
    const alone = [1, 2, 3].map((n) => page(n, [para([line(`Page ${n}`, 40)])]));
    markFurniture(alone, 10);
    expect(alone.some((p) => (p.blocks[0] as Para).furniture)).toBe(false);
    const large = [1, 2, 3].map((n) =>
      page(n, [para([line(`Chapter ${n}`, 40, 72, 14)]), para([line('Body text', 100)])]),
    );
    markFurniture(large, 10);
    expect(large.some((p) => (p.blocks[0] as Para).furniture)).toBe(false);
  });
});

describe('markContinuations', () => {
  it('joins a paragraph cut by a page break, and not one that ended before it', () => {
    const cut = [page(1, [para([line(full, 600), line(full, 612)])]), page(2, [para([line('goes on here.', 72)])])];
    markContinuations(cut);
    expect((cut[1]!.blocks[0] as Para).continues).toBe(true);
    const ended = [
      page(1, [para([line(full, 600), line('the end.', 612)])]),
      page(2, [para([line('A new one.', 72)])]),
    ];
    markContinuations(ended);
    expect((ended[1]!.blocks[0] as Para).continues).toBeUndefined();
  });

  it('does not join a single line whose column is unknown', () => {
    const pages = [page(1, [para([line('Page 1', 72)])]), page(2, [para([line('Page 2', 72)])])];
    markContinuations(pages);
    expect((pages[1]!.blocks[0] as Para).continues).toBeUndefined();
  });
});

describe('classifyHeadings', () => {
  const body = (top: number) => para([line(full, top), line(full, top + 12), line('end of it.', top + 24)]);

  it('makes a title broken over two lines one heading', () => {
    const big = (text: string, top: number) => para([line(text, top, 72, 24)]);
    const pages = [page(1, [big('A Title Broken', 72), big('Over Two Lines', 100), body(150), body(200)])];
    classifyHeadings(pages);
    const headings = pages[0]!.blocks.filter((b) => b.kind === 'para' && b.role === 'heading') as Para[];
    expect(headings.length).toBe(1);
    expect(paraText(headings[0]!)).toBe('A Title Broken Over Two Lines');
  });

  it("makes a numbered title's second line, hanging under its words, part of it, and no body line after it", () => {
    const big = (text: string, top: number, x0 = 72) => para([line(text, top, x0, 24)]);
    const pages = [1, 2].map((n) =>
      page(n, [big(`${n} Manifolds and`, 72), big('Simplicial Complexes', 100, 96), body(150), body(200)]),
    );
    classifyHeadings(pages);
    const headings = pages[0]!.blocks.filter((b) => b.kind === 'para' && b.role === 'heading') as Para[];
    expect(headings.map(paraText)).toEqual(['1 Manifolds and Simplicial Complexes']);
    expect(pages[0]!.blocks).toHaveLength(3);
  });

  it('ranks heading sizes used on several pages, and takes bold body text for a heading only when set off above', () => {
    const h = (text: string, top: number, size: number) => para([line(text, top, 72, size)], { bold: true });
    const pages = [1, 2].map((n) =>
      page(n, [
        h('Chapter', 72, 16),
        body(100),
        h('Section', 150, 14),
        body(175),
        para([line('Run-in label', 213)], { bold: true }),
        body(226),
        para([line('Bold subhead', 290)], { bold: true }),
        body(306),
      ]),
    );
    classifyHeadings(pages);
    const roles = pages[0]!.blocks.map((b) => (b.kind === 'para' && b.role === 'heading' ? b.level : 0));
    expect(roles).toEqual([1, 0, 2, 0, 0, 0, 3, 0]);
  });

  it('takes bold lines at body size that follow one another for labels, not headings', () => {
    const label = (text: string, top: number) => para([line(text, top)], { bold: true });
    const pages = [
      page(1, [body(72), label('Text Body', 130), label('Text Body Indent', 160), label('Code', 190), body(206)]),
    ];
    classifyHeadings(pages);
    expect(pages[0]!.blocks.some((b) => b.kind === 'para' && b.role === 'heading')).toBe(false);
  });
});
