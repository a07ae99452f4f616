import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { pdf, useEditor, pages, check, text, info } from '../../../test/helpers.ts';

const { call } = useEditor();

function trailerId(file: string): string {
  return /\/ID\s*\[\s*<([0-9a-f]+)>/i.exec(execFileSync('qpdf', ['--show-object=trailer', file]).toString())?.[1] ?? '';
}

describe('pdf-metadata-cleaner', () => {
  it.each(['pypdf-xmp-metadata.pdf', 'pypdf-crazyones-pdfa.pdf', 'pdfjs-tracemonkey.pdf'])(
    'removes the document information, XMP and other identifying data from %s',
    async (name) => {
      const source = pdf(name);
      const r = await call('pdf-metadata-cleaner', [source]);
      expect(r.status).toBe(200);
      const before = info(source);
      const after = info(r.file);
      expect(before).toMatch(/^(Producer|Creator|CreationDate|Metadata Stream:\s+yes)/m);
      for (const key of ['Title', 'Subject', 'Keywords', 'Author', 'Creator', 'Producer', 'CreationDate', 'ModDate']) {
        expect(after).not.toMatch(new RegExp(`^${key}:`, 'm'));
      }
      expect(after).toMatch(/Metadata Stream:\s+no/);
      expect(pages(r.file)).toBe(pages(source));
      expect(check(r.file)).toBe(0);
      expect(text(r.file)).toBe(text(source));
      const id = trailerId(r.file);
      expect(id).toMatch(/^[0-9a-f]{32}$/);
      expect(id).not.toBe(trailerId(source));
      // Nothing identifying is left anywhere, once streams are decompressed.
      const qdf = execFileSync('qpdf', ['--qdf', '--object-streams=disable', r.file, '-'], {
        maxBuffer: 1 << 28,
      }).toString('latin1');
      expect(qdf).not.toMatch(/\/Metadata|\/PieceInfo|\/PTEX\.|\/Producer|x:xmpmeta/);
    },
  );

  it('keeps the page tree when the trailer names it as /Info', async () => {
    // The trailer's /Info is 2 0 R, which is also the catalog's /Pages.
    const source = pdf('pypdf-cmyk-image.pdf');
    expect(execFileSync('qpdf', ['--show-object=trailer', source]).toString()).toMatch(/\/Info 2 0 R/);
    expect(execFileSync('qpdf', ['--show-object=1', source]).toString()).toMatch(/\/Pages 2 0 R/);
    const r = await call('pdf-metadata-cleaner', [source]);
    expect(r.status).toBe(200);
    expect(pages(r.file)).toBe(1);
    expect([0, 3]).toContain(check(r.file));
    expect(info(r.file)).not.toMatch(/^(Producer|Creator|CreationDate):/m);
  });

  it('gives a different /ID each time', async () => {
    const a = await call('pdf-metadata-cleaner', [pdf('qpdf-11-pages.pdf')]);
    const b = await call('pdf-metadata-cleaner', [pdf('qpdf-11-pages.pdf')]);
    expect(trailerId(a.file)).not.toBe(trailerId(b.file));
  });
});
