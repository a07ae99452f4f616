import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { officeParts } from '../../test/helpers.ts';
import { writeDocx } from '../render/docx.ts';
import { classifyHeadings, isSentences } from './analyze.ts';
import { markTitles } from './titles.ts';
import { line, page, para } from '../../test/layout.ts';
import type { PageLayout, Para } from './types.ts';

const full = 'x'.repeat(90);
const body = (top: number) => para([line(full, top), line(full, top + 12), line('end of it.', top + 24)]);
const big = (text: string, top: number, size: number) => para([line(text, top, 72, size)]);
const headings = (pages: PageLayout[]) =>
  pages.flatMap((p) => p.blocks.filter((b): b is Para => b.kind === 'para' && b.role === 'heading'));
const laidOut = (pages: PageLayout[]) => {
  classifyHeadings(pages);
  markTitles(pages);
  return headings(pages).map((h) => [h.lines.map((l) => l.text).join(' '), h.titling ?? `h${h.level}`]);
};

describe('markTitles', () => {
  const chapter = (n: number) => page(n, [big(`Section ${n}`, 72, 16), body(100), body(150), body(200)]);

  it('makes a title page of large headings its title and subtitles, and sections stay in the outline', () => {
    const cover = page(1, [big('Guide Name', 200, 24), big('The Title', 260, 32), big('A subtitle here', 310, 18)]);
    expect(laidOut([cover, chapter(2), chapter(3)])).toEqual([
      ['Guide Name', 'subtitle'],
      ['The Title', 'title'],
      ['A subtitle here', 'subtitle'],
      ['Section 2', 'h1'],
      ['Section 3', 'h1'],
    ]);
  });

  it('leaves a first page alone that holds text of its own or a heading the size of later ones', () => {
    const opening = page(1, [big('The Title', 72, 32), body(120), body(170), body(220)]);
    expect(laidOut([opening, chapter(2)]).map(([, role]) => role)).toEqual(['h1', 'h2']);
    const first = page(1, [big('Big Title', 200, 24), big('Section 1', 300, 16)]);
    expect(laidOut([first, chapter(2), chapter(3)]).every(([, role]) => role?.startsWith('h'))).toBe(true);
    expect(laidOut([page(1, [big('Alone', 72, 24), body(120)])])).toEqual([['Alone', 'h1']]);
  });

  it('takes the heading over entries with leaders for the title of the contents, and only that one', () => {
    const entries = para([line('Introduction .......... 3', 110), line('Methods .......... 7', 122)]);
    const contents = page(2, [big('Contents', 72, 16), entries, big('Preface', 200, 16), body(230)]);
    expect(laidOut([chapter(1), contents, chapter(3)])).toEqual([
      ['Section 1', 'h1'],
      ['Contents', 'contents'],
      ['Preface', 'h1'],
      ['Section 3', 'h1'],
    ]);
  });
});

describe('Word styles of headings outside the outline', () => {
  it('writes a title page in Title and Subtitle, the contents under TOC Heading, sections in Heading 1', async () => {
    const cover = page(1, [big('The Title', 260, 32), big('A subtitle here', 310, 18)]);
    const entries = para([line('Introduction .......... 3', 110)]);
    const contents = page(2, [big('Contents', 72, 16), entries]);
    const pages = [cover, contents, page(3, [big('Introduction', 72, 16), body(100)])];
    laidOut(pages);
    const dir = mkdtempSync(join(tmpdir(), 'titles-'));
    try {
      await writeDocx({ pages, bodySize: 10 }, join(dir, 'out.docx'));
      const parts = officeParts(join(dir, 'out.docx'));
      const styled = [...parts['word/document.xml']!.matchAll(/<w:pStyle w:val="(\w+)"\/>[\s\S]*?<w:t[^>]*>([^<]*)</g)];
      expect(styled.map((m) => [m[2], m[1]])).toEqual([
        ['The Title', 'Title'],
        ['A subtitle here', 'Subtitle'],
        ['Contents', 'TOCHeading'],
        ['Introduction', 'Heading1'],
      ]);
      expect(parts['word/styles.xml']).toMatch(/w:styleId="TOCHeading"[\s\S]*?<w:name w:val="TOC Heading"\/>/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('isSentences', () => {
  it('knows two sentences from a heading, numbered or abbreviated', () => {
    expect(isSentences('Sample text is hard. That is where http://hipsum.co comes in handy.')).toBe(true);
    expect(isSentences('It works. Try it!')).toBe(true);
    expect(isSentences('1. Introduction')).toBe(false);
    expect(isSentences('U.S. Policy in 2020')).toBe(false);
    expect(isSentences('Chapter 3. The Start')).toBe(false);
    expect(isSentences('Results and discussion.')).toBe(false);
  });

  it('keeps a large sentence pair out of the headings', () => {
    const pages = [page(1, [big('It is hard. That is why we wrote this.', 72, 24), body(120), body(170)])];
    expect(laidOut(pages)).toEqual([]);
  });
});
