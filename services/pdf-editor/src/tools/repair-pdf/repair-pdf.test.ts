import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { check, corpus, encrypted, pages, pdf, pool, scratch, text, useEditor } from '../../../test/helpers.ts';

const { call } = useEditor();
const broken = (name: string) => join(corpus, 'pdf-broken', name);
const words = (s: string) => s.split(/\s+/).filter(Boolean);
/** A damaged file's text as Poppler reads it, without its complaints about the damage. */
const readerText = (file: string) => execFileSync('pdftotext', ['-q', file, '-'], { stdio: 'pipe' }).toString();

/**
 * Every file of the corpus's damaged PDFs that holds a PDF, with what the repair makes of it: its pages,
 * the engine that mended it and what was wrong. Its words are those Poppler reads of the damaged file.
 */
const recovered: [file: string, pages: number, engine: string, repairs: string[]][] = [
  ['pdfjs-GHOSTSCRIPT-698804-1-fuzzed.pdf', 1, 'qpdf', ['the cross-reference table was rebuilt']],
  ['pdfjs-Pages-tree-refs.pdf', 1, 'qpdf', ['the page tree was mended']],
  [
    'pdfjs-bug1250079-garbage-trailer.pdf',
    1,
    'ghostscript',
    ['the cross-reference table was rebuilt', 'the trailer was rebuilt'],
  ],
  [
    'pdfjs-scan-bad-truncated.pdf',
    1,
    'qpdf',
    ['the cross-reference table was rebuilt', 'damaged image data was read as far as it goes'],
  ],
  ['pdfminer-zen_of_python_corrupted.pdf', 1, 'qpdf', []],
  ['pdfplumber-malformed-issue-932.pdf', 1, 'qpdf', []],
  ['qpdf-append-xref-loop.pdf', 30, 'qpdf', ['the cross-reference table was rebuilt']],
  ['qpdf-bad-xref-entry.pdf', 1, 'qpdf', ['the cross-reference table was rebuilt']],
  ['qpdf-damaged-stream.pdf', 1, 'ghostscript', ['damaged stream data was read as far as it goes']],
  ['qpdf-leading-junk.pdf', 30, 'qpdf', ['junk before the PDF header was dropped']],
  ['qpdf-pages-loop.pdf', 1, 'qpdf', ['the page tree was mended']],
  ['qpdf-xref-errors.pdf', 1, 'qpdf', ['the cross-reference table was rebuilt']],
];

/** The corpus's files named .pdf that hold nothing of a PDF (but bytes: an empty one is said to be empty). */
const noPdf = [
  'qpdf-bad1-oops.pdf',
  'qpdf-issue-335b.pdf',
  'qpdf-not-even-a-pdf.pdf',
  'renamed-docx-as.pdf',
  'renamed-html-as.pdf',
  'renamed-png-as.pdf',
];

describe('repair-pdf', () => {
  it('recovers every damaged PDF of the corpus into a clean file with the pages and words a reader finds', async () => {
    await pool(recovered, 4, async ([file, count, engine, repairs]) => {
      const r = await call('repair-pdf', [broken(file)]);
      expect(r.status, `${file}: ${JSON.stringify(r.error)}`).toBe(200);
      expect(check(r.file), file).toBe(0);
      expect(pages(r.file), file).toBe(count);
      expect(encrypted(r.file), file).toBe(false);
      expect(words(text(r.file)), file).toEqual(words(readerText(broken(file))));
      expect(r.props, file).toMatchObject({ pages: count, engine, repairs, damaged: repairs.length > 0 });
      expect(r.props.checks, file).toEqual(['opens', 'clean', 'pages', 'text', 'pixels']);
    });
    // Every file of the folder is one or the other, or the empty one.
    const all = [...recovered.map(([file]) => file), ...noPdf, 'pdfplumber-zero-byte.pdf'];
    expect(all.sort()).toEqual(readdirSync(broken('')).sort());
  });

  it('keeps the words of a page tree that loops, and of a stream only Ghostscript can read', async () => {
    const loop = await call('repair-pdf', [broken('pdfjs-Pages-tree-refs.pdf')]);
    expect(text(loop.file)).toContain('Pages loop');
    const stream = await call('repair-pdf', [broken('qpdf-damaged-stream.pdf')]);
    expect(text(stream.file)).toContain('Potato');
    const trailer = await call('repair-pdf', [broken('pdfjs-bug1250079-garbage-trailer.pdf')]);
    expect(text(trailer.file)).toContain('Bug 1250079');
  });

  it('recovers a PDF whose start was lost, or buried under junk, which other tools refuse', async () => {
    const whole = readFileSync(pdf('qpdf-11-pages.pdf'));
    const headless = join(scratch, 'headless.pdf');
    writeFileSync(headless, whole.subarray(9));
    const r = await call('repair-pdf', [headless]);
    expect(r.status, JSON.stringify(r.error)).toBe(200);
    expect(pages(r.file)).toBe(11);
    expect(text(r.file)).toBe(text(pdf('qpdf-11-pages.pdf')));
    expect(r.props.repairs).toContain('the PDF header was missing');
    expect((await call('rotate-pdf', [headless])).error?.code).toBe('unsupported_type');

    const buried = join(scratch, 'buried.pdf');
    writeFileSync(buried, Buffer.concat([Buffer.alloc(4096, '#'), whole]));
    const dug = await call('repair-pdf', [buried]);
    expect(dug.status, JSON.stringify(dug.error)).toBe(200);
    expect(pages(dug.file)).toBe(11);
    expect(dug.props.repairs).toContain('junk before the PDF header was dropped');
  });

  it('gives a sound PDF back as a clean rewrite, with nothing repaired', async () => {
    const r = await call('repair-pdf', [pdf('qpdf-11-pages.pdf')]);
    expect(r.props).toMatchObject({ pages: 11, damaged: false, repairs: [], engine: 'qpdf' });
    expect(text(r.file)).toBe(text(pdf('qpdf-11-pages.pdf')));
  });

  it('refuses a file that holds no PDF at all, saying so, an empty one, and one with nothing left to recover', async () => {
    for (const file of noPdf) {
      const r = await call('repair-pdf', [broken(file)]);
      expect(r.status, file).toBe(415);
      expect(r.error, file).toMatchObject({
        code: 'unsupported_type',
        message: `"${file}" holds no PDF, not even a damaged one: there is nothing to repair.`,
        details: { file, tool: 'repair-pdf' },
      });
    }
    const empty = await call('repair-pdf', [broken('pdfplumber-zero-byte.pdf')]);
    expect(empty.error).toEqual({
      code: 'empty_file',
      message: '"pdfplumber-zero-byte.pdf" is empty (0 bytes).',
      details: { file: 'pdfplumber-zero-byte.pdf' },
    });
    const husk = join(scratch, 'husk.pdf');
    writeFileSync(husk, '%PDF-1.7\n%\xe2\xe3\xcf\xd3\nnothing else survived\n');
    const r = await call('repair-pdf', [husk]);
    expect(r.status).toBe(422);
    expect(r.error).toEqual({
      code: 'damaged_input',
      message: 'This PDF is too damaged: no page of it could be recovered.',
    });
  });
});
