import { siteTools } from '@quire/catalog';
import { describe, expect, it } from 'vitest';
import { resultKind, toolsFor } from './next-tools.ts';

const catalog = siteTools();
const ids = (download: string, from: string) => toolsFor(resultKind(download), from, catalog).map((t) => t.id);

describe('what a result can go on to', () => {
  it('reads the kind from the result name', () => {
    expect(resultKind('report-abc123.pdf')).toBe('pdf');
    expect(resultKind('letter.DOCX')).toBe('docx');
    expect(resultKind('pages.zip')).toBe('zip');
    expect(resultKind('noextension')).toBeUndefined();
  });

  it('offers a Word result to Word to PDF, not to Merge', () => {
    expect(ids('scan.docx', 'pdf-to-word')).toEqual(['word-to-pdf']);
    expect(ids('tables.xlsx', 'pdf-to-excel')).toEqual(['excel-to-pdf']);
    expect(ids('slides.pptx', 'pdf-to-ppt')).toEqual(['ppt-to-pdf']);
    expect(ids('page.html', 'pdf-to-html')).toEqual(['html-to-pdf']);
    expect(ids('notes.md', 'pdf-to-text')).toEqual(['markdown-to-pdf']);
  });

  it('offers a PDF to every tool that reads PDFs but the one that made it, the most used first', () => {
    const next = ids('out.pdf', 'pdf-compress');
    expect(next).not.toContain('pdf-compress');
    expect(next).toEqual(expect.arrayContaining(['pdf-merge', 'pdf-unlock', 'pdf-split', 'rotate-pdf', 'pdf-ocr']));
    expect(next).not.toContain('word-to-pdf');
    expect(next[0]).toBe('pdf-merge');
  });

  it('offers nothing for a kind no tool reads', () => {
    expect(ids('pages.zip', 'pdf-split')).toEqual([]);
    expect(ids('text.txt', 'pdf-to-text')).toEqual([]);
  });
});
