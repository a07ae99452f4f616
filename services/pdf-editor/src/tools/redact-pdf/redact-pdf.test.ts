import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PDFDocument, StandardFonts } from '@cantoo/pdf-lib';
import { describe, expect, it } from 'vitest';
import { corpus, info, pages, pdf, scratch, text, useEditor } from '../../../test/helpers.ts';
import { cut, render, type Grey } from '../../../test/render.ts';

const { call } = useEditor();

/** A one-page PDF of these lines, in Helvetica 12, made by another library than the one that redacts. */
async function letter(name: string, lines: string[]): Promise<string> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const page = doc.addPage([500, 400]);
  lines.forEach((line, i) => page.drawText(line, { x: 40, y: 350 - i * 20, size: 12, font }));
  doc.setAuthor('Ada Lovelace');
  doc.setTitle('Private letter');
  const path = join(scratch, name);
  writeFileSync(path, await doc.save());
  return path;
}

const mean = (g: Grey) => g.pixels.reduce((a, b) => a + b, 0) / g.pixels.length;
const words = (s: string) => s.split(/\s+/).filter(Boolean);

describe('redact-pdf', () => {
  it('removes a term from the text, not just from sight, and keeps the other words of the page', async () => {
    const source = pdf('pypdf-libreoffice-writer.pdf');
    const before = text(source, 1);
    expect(before).toMatch(/sadipscing/);
    const r = await call('redact-pdf', [source], { terms: 'sadipscing\nAt vero' });
    expect(r.status, r.error?.message).toBe(200);
    const after = text(r.file, 1);
    expect(after).not.toMatch(/sadipscing/i);
    expect(after).not.toMatch(/At\s+vero/);
    // Every other word stays: the page lost exactly the redacted ones.
    const lost = words(before).length - words(after).length;
    const redacted = (before.match(/sadipscing/g) ?? []).length + 2 * (before.match(/At\s+vero/g) ?? []).length;
    expect(lost).toBe(redacted);
    expect(after).toMatch(/Lorem ipsum dolor sit amet, consetetur/);
    expect(pages(r.file)).toBe(pages(source));
    expect(r.props.terms).toBe(redacted - (before.match(/At\s+vero/g) ?? []).length);
    expect(r.props.pagesRedacted).toBeGreaterThanOrEqual(1);
  });

  it('matches terms without regard to case unless asked', async () => {
    const source = pdf('pypdf-libreoffice-writer.pdf');
    const loose = await call('redact-pdf', [source], { terms: 'LOREM' });
    expect(text(loose.file)).not.toMatch(/lorem/i);
    const strict = await call('redact-pdf', [source], { terms: 'LOREM', matchCase: 'true' });
    expect(strict.status).toBe(200);
    expect(strict.props.terms).toBe(0);
    expect(text(strict.file)).toMatch(/Lorem/);
  });

  it('removes e-mail addresses and phone numbers, and the metadata', async () => {
    const source = await letter('contacts.pdf', [
      'Dear committee,',
      'write to jane.doe@example.org or call +44 20 7946 0958 today.',
      'Our office: (555) 123-4567, fax 555.987.6543; mail ops@mail.example.com',
      'Invoice total 42 euros, due in 30 days.',
    ]);
    expect(info(source)).toMatch(/Author:\s+Ada Lovelace/);
    const r = await call('redact-pdf', [source], { emails: 'true', phones: 'true' });
    expect(r.status, r.error?.message).toBe(200);
    const after = text(r.file);
    for (const gone of ['jane.doe', 'example.org', '7946', '0958', '123-4567', '987', 'ops@', 'mail.example.com'])
      expect(after).not.toContain(gone);
    for (const kept of ['Dear committee', 'write to', 'or call', 'today', 'Invoice total 42 euros, due in 30 days'])
      expect(after).toContain(kept);
    expect(r.props).toMatchObject({ emails: 2, phones: 3, metadataCleaned: true });
    expect(info(r.file)).not.toMatch(/Author|Title:\s+Private/);
    // Kept when asked.
    const kept = await call('redact-pdf', [source], { emails: 'true', cleanMetadata: 'false' });
    expect(info(kept.file)).toMatch(/Author:\s+Ada Lovelace/);
  });

  it('blacks out a box over an image: its pixels and the text under it are gone', async () => {
    const source = pdf('pypdf-pdflatex-image.pdf'); // a 300 x 200 pt photo at (148, 229) on an A4 page, text below
    const box = { page: 1, x: 200 / 595.28, y: 300 / 841.89, width: 200 / 595.28, height: 160 / 841.89 };
    const r = await call('redact-pdf', [source], { boxes: JSON.stringify([box]) });
    expect(r.status, r.error?.message).toBe(200);
    const dpi = 36;
    const px = (pt: number) => Math.round((pt * dpi) / 72);
    const inside = (file: string) => cut(render(file, 1, dpi), px(205), px(305), px(190), px(150));
    expect(mean(inside(source))).toBeGreaterThan(40);
    expect(mean(inside(r.file))).toBeLessThan(2);
    expect(text(source)).toMatch(/Stet clita kasd gubergren/);
    expect(text(r.file)).not.toMatch(/gubergren, no sea takimata sanctus/);
    expect(text(r.file)).toMatch(/Your Chapter/);
    expect(r.props).toMatchObject({ boxes: 1, pagesRedacted: 1 });
  });

  it('opens an encrypted input with its password', async () => {
    const source = join(corpus, 'pdf-encrypted/camelot-health-protected.pdf');
    expect(text(source, undefined, 'userpass')).toMatch(/Puducherry/);
    const r = await call('redact-pdf', [source], { terms: 'Puducherry', password: 'userpass' });
    expect(r.status, r.error?.message).toBe(200);
    expect(text(r.file)).not.toMatch(/Puducherry/i);
    expect(text(r.file)).toMatch(/Punjab/);
    const locked = await call('redact-pdf', [source], { terms: 'Puducherry' });
    expect(locked.error?.code).toBe('password_required');
  });

  it('stops a regular expression that backtracks for ever, and says so', async () => {
    const source = await letter('long-a.pdf', ['a'.repeat(60) + '!', 'a'.repeat(60) + '?']);
    const r = await call('redact-pdf', [source], { regex: '(a+)+$' });
    expect(r.status).toBe(400);
    expect(r.error?.code).toBe('regex_too_slow');
    // A sane one on the same text works.
    const ok = await call('redact-pdf', [source], { regex: 'a{10}!' });
    expect(ok.status, ok.error?.message).toBe(200);
    expect(text(ok.file)).not.toMatch(/a!/);
    expect(text(ok.file)).toMatch(/a\?/);
  });

  it('refuses bad options with a clear error', async () => {
    const source = pdf('pypdf-libreoffice-writer.pdf');
    const cases: [Record<string, string>, string][] = [
      [{}, 'terms'],
      [{ boxes: 'not json' }, 'boxes'],
      [{ boxes: '[{"page": 1, "x": 0.5, "y": 0.5, "width": 0.9, "height": 0.1}]' }, 'boxes'],
      [{ boxes: '[{"page": 9, "x": 0.1, "y": 0.1, "width": 0.1, "height": 0.1}]' }, 'boxes'],
      [{ regex: '(unclosed' }, 'regex'],
      [{ regex: 'x'.repeat(301) }, 'regex'],
      [{ terms: 'a', emails: 'yes' }, 'emails'],
    ];
    for (const [fields, option] of cases) {
      const r = await call('redact-pdf', [source], fields);
      expect(r.status, JSON.stringify(fields)).toBe(400);
      expect(r.error?.code).toBe('invalid_option');
      expect(r.error?.message).toContain(`"${option}"`);
    }
  });

  it('gives the document back, with 0 areas redacted, when nothing matches', async () => {
    const source = pdf('pypdf-libreoffice-writer.pdf');
    const r = await call('redact-pdf', [source], { terms: 'zebra crossing', cleanMetadata: 'false' });
    expect(r.status).toBe(200);
    expect(r.props).toMatchObject({ terms: 0, pagesRedacted: 0 });
    expect(text(r.file)).toBe(text(source));
  });

  it('redacts a file MuPDF will not save as it is (an object missing from its object stream), through its rewrite', async () => {
    const source = pdf('pdfplumber-scotus-transcript-p1.pdf');
    const box = JSON.stringify([{ page: 1, x: 0, y: 0, width: 1, height: 0.12 }]);
    const r = await call('redact-pdf', [source], { boxes: box, terms: 'Official' });
    expect(r.status, JSON.stringify(r.error)).toBe(200);
    expect(text(source)).toContain('Official');
    expect(text(r.file)).not.toContain('Official');
    expect(pages(r.file)).toBe(pages(source));
  });
});
