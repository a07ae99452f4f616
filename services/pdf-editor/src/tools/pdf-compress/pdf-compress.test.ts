import { execFileSync } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { compressionLevels } from '@quire/catalog';
import { greySimilarity, renderPage } from '@quire/pdf';
import { pdf, scratch, useEditor, pages, check, text, info, pool } from '../../../test/helpers.ts';
import { hasMetadata } from './images.ts';

const { call } = useEditor();

describe('pdf-compress', () => {
  it('never returns a larger file, keeps every page, and reports what it did', async () => {
    const runs = [
      ...['low', 'recommended', 'extreme'].map((level) => ({ f: 'pypdf-pdflatex-image.pdf', level })),
      ...['qpdf-11-pages.pdf', 'pdfminer-simple1.pdf', 'pypdf-cmyk-image.pdf'].map((f) => ({
        f,
        level: 'recommended',
      })),
    ];
    const sizes: Record<string, number> = {};
    await pool(runs, 3, async ({ f, level }) => {
      const source = pdf(f);
      const r = await call('pdf-compress', [source], { level });
      const what = `${f} ${level}`;
      expect(r.status, what).toBe(200);
      const size = statSync(r.file).size;
      sizes[`${f} ${level}`] = size;
      expect(size, what).toBeLessThanOrEqual(statSync(source).size);
      expect(r.props, what).toMatchObject({
        bytesBefore: statSync(source).size,
        bytesAfter: size,
        pages: pages(source),
      });
      expect(pages(r.file), what).toBe(pages(source));
      expect(check(r.file), what).toBe(0);
      if (r.props.candidate === 'original') expect(readFileSync(r.file).equals(readFileSync(source)), what).toBe(true);
      if (f === 'pypdf-pdflatex-image.pdf' && level === 'extreme') {
        expect(r.props.candidate).toMatch(/^(images|ghostscript|ghostscript\+images)$/);
      }
    });
    // An image-heavy file gets smaller, more so at a stronger level.
    const image = statSync(pdf('pypdf-pdflatex-image.pdf')).size;
    expect(sizes['pypdf-pdflatex-image.pdf extreme']).toBeLessThan(image * 0.8);
    expect(sizes['pypdf-pdflatex-image.pdf extreme']).toBeLessThanOrEqual(sizes['pypdf-pdflatex-image.pdf low']!);
  });

  it('keeps the pictures when Ghostscript fails on a file', async () => {
    const source = pdf('pypdf-cmyk-image.pdf');
    const r = await call('pdf-compress', [source]);
    expect(r.props.candidate).not.toBe('ghostscript');
    expect(execFileSync('pdfimages', ['-list', r.file]).toString()).toMatch(/756\s+1008/);
  });

  it('ends with a file that looks like the input where Ghostscript draws garbage', async () => {
    const source = pdf('pypdf-imagemagick-images.pdf');
    const r = await call('pdf-compress', [source]);
    expect(r.props.candidate).not.toBe('ghostscript');
    const job = { workdir: scratch, signal: new AbortController().signal, deadline: Date.now() + 60_000 };
    for (let page = 1; page <= pages(source); page++) {
      const [before, after] = await Promise.all([renderPage(source, page, 72, job), renderPage(r.file, page, 72, job)]);
      expect(greySimilarity(before, after), `page ${page}`).toBeGreaterThanOrEqual(compressionLevels.recommended.ssim);
    }
  });

  it("judges a stamp-sized page at 150 dpi too, where Ghostscript's rewrite moves its pixels", async () => {
    // At 72 dpi this 4-point page is 4×4 pixels and Ghostscript's rewrite renders alike; at 150 dpi it does not.
    const source = pdf('pypdf-imagemagick-CCITTFaxDecode.pdf');
    const job = { workdir: scratch, signal: new AbortController().signal, deadline: Date.now() + 60_000 };
    for (const level of ['recommended', 'extreme']) {
      const r = await call('pdf-compress', [source], { level });
      expect(r.props.candidate, level).not.toMatch(/ghostscript/);
      for (const dpi of [72, 150, 600]) {
        const [before, after] = await Promise.all([renderPage(source, 1, dpi, job), renderPage(r.file, 1, dpi, job)]);
        expect(greySimilarity(before, after), `${level} at ${dpi} dpi`).toBeCloseTo(1, 9);
      }
    }
  });

  it('adds no XMP metadata the original did not have, and keeps what it had', async () => {
    const job = { workdir: scratch, signal: new AbortController().signal, deadline: Date.now() + 60_000 };
    for (const [name, had] of [
      ['pypdf-habibi-rotated.pdf', false],
      ['pypdf-crazyones-pdfa.pdf', true],
    ] as const) {
      expect(await hasMetadata(pdf(name), job), name).toBe(had);
      const r = await call('pdf-compress', [pdf(name)]);
      expect(await hasMetadata(r.file, job), `${name} (${String(r.props.candidate)})`).toBe(had);
    }
  });

  it('keeps fillable form fields', async () => {
    const source = pdf('qpdf-sample-form.pdf');
    const r = await call('pdf-compress', [source], { level: 'extreme' });
    expect(statSync(r.file).size).toBeLessThan(statSync(source).size);
    expect(info(r.file)).toMatch(/Form:\s+AcroForm/);
  });

  it('keeps text extractable', async () => {
    const source = pdf('pypdf-minimal-document.pdf');
    const r = await call('pdf-compress', [source]);
    expect(text(r.file).replace(/\s+/g, ' ')).toContain('Lorem ipsum dolor sit amet');
  });
});
