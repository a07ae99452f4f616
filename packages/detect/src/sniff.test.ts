import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sniffKind } from './sniff.ts';
import { detectZipKind } from './zip-entries.ts';

const corpus = new URL('../../../../shared/corpus/', import.meta.url).pathname;

describe('sniffKind', () => {
  it.each([
    ['pdf/qpdf-11-pages.pdf', 'pdf'],
    ['pdf-broken/qpdf-leading-junk.pdf', 'pdf'],
    ['pdf-broken/renamed-docx-as.pdf', 'docx'],
    ['pdf-broken/renamed-html-as.pdf', 'html'],
    ['pdf-broken/renamed-png-as.pdf', 'png'],
    ['pdf-broken/pdfplumber-zero-byte.pdf', undefined],
    ['pdf-broken/qpdf-not-even-a-pdf.pdf', undefined],
    ['images/pillow-hopper.jpg', 'jpeg'],
    ['images/pillow-hopper.bmp', 'bmp'],
    ['images/pillow-hopper.webp', 'webp'],
    ['images/pillow-hopper.tif', 'tiff'],
    ['office/jod-test.xlsx', 'xlsx'],
    ['office/jod-test.rtf', 'rtf'],
  ])('%s is %s', async (file, kind) => {
    expect(await sniffKind(join(corpus, file))).toBe(kind);
  });

  it('tells a page-and-assets zip from any other zip', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'zip-'));
    writeFileSync(join(dir, 'index.html'), '<p>hi</p>');
    writeFileSync(join(dir, 'other.txt'), 'x');
    execFileSync('python3', [
      '-c',
      `import zipfile,sys
z=zipfile.ZipFile(sys.argv[1],'w'); z.write(sys.argv[2],'index.html'); z.close()
z=zipfile.ZipFile(sys.argv[3],'w'); z.write(sys.argv[4],'other.txt'); z.close()`,
      join(dir, 'a.zip'),
      join(dir, 'index.html'),
      join(dir, 'b.zip'),
      join(dir, 'other.txt'),
    ]);
    expect(await detectZipKind(join(dir, 'a.zip'))).toBe('html-zip');
    expect(await detectZipKind(join(dir, 'b.zip'))).toBe('zip');
    expect(await detectZipKind(join(dir, 'index.html'))).toBeUndefined();
  });
});
