import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { findTool } from '@quire/catalog';
import { holdsPdf } from './damaged-pdf.ts';
import { sniffKind } from './sniff.ts';
import { uploadKind } from './upload-kind.ts';
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
    ['images/pillow-hopper.avif', 'avif'],
    ['office/jod-test.xlsx', 'xlsx'],
    ['office/jod-test.rtf', 'rtf'],
  ])('%s is %s', async (file, kind) => {
    expect(await sniffKind(join(corpus, file))).toBe(kind);
  });

  it('tells a PKCS#12 certificate from a certificate or key alone', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'p12-'));
    const at = (name: string) => join(dir, name);
    const openssl = (...args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: 'pipe' });
    openssl(
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-keyout',
      'key.pem',
      '-out',
      'cert.pem',
      '-subj',
      '/CN=t',
    );
    openssl('pkcs12', '-export', '-inkey', 'key.pem', '-in', 'cert.pem', '-out', 'aes.p12', '-passout', 'pass:pw');
    // Older tools write RC2/3DES with a SHA-1 MAC: the same outer form.
    openssl(
      'pkcs12',
      '-export',
      '-legacy',
      '-inkey',
      'key.pem',
      '-in',
      'cert.pem',
      '-out',
      'old.pfx',
      '-passout',
      'pass:',
    );
    openssl('x509', '-in', 'cert.pem', '-outform', 'der', '-out', 'cert.der');
    openssl('pkey', '-in', 'key.pem', '-outform', 'der', '-out', 'key.der');
    expect(await sniffKind(at('aes.p12'))).toBe('p12');
    expect(await sniffKind(at('old.pfx'))).toBe('p12');
    for (const other of ['cert.pem', 'cert.der', 'key.der']) expect(await sniffKind(at(other)), other).toBeUndefined();
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

describe('a damaged PDF, for a tool that repairs what it reads', () => {
  const broken = (name: string) => join(corpus, 'pdf-broken', name);
  const dir = mkdtempSync(join(tmpdir(), 'damaged-'));
  const eleven = readFileSync(join(corpus, 'pdf/qpdf-11-pages.pdf'));
  /** The same PDF with its first bytes lost, and with 5 KB of junk before its header. */
  const headless = join(dir, 'headless.pdf');
  writeFileSync(headless, eleven.subarray(9));
  const buried = join(dir, 'buried.pdf');
  writeFileSync(buried, Buffer.concat([Buffer.alloc(5000, 'x'), eleven]));

  it.each([
    ['pdfjs-bug1250079-garbage-trailer.pdf', true],
    ['qpdf-leading-junk.pdf', true],
    ['pdfplumber-zero-byte.pdf', false],
    ['qpdf-bad1-oops.pdf', false],
    ['qpdf-issue-335b.pdf', false],
    ['qpdf-not-even-a-pdf.pdf', false],
    ['renamed-docx-as.pdf', false],
    ['renamed-html-as.pdf', false],
    ['renamed-png-as.pdf', false],
  ])('%s holds a PDF: %s', async (file, holds) => {
    expect(await holdsPdf(broken(file))).toBe(holds);
  });

  it('is a PDF to Repair PDF when a reader could recover one, and to no other tool', async () => {
    expect(await holdsPdf(headless)).toBe(true);
    expect(await holdsPdf(buried)).toBe(true);
    const repair = findTool('repair-pdf')!;
    const rotate = findTool('rotate-pdf')!;
    for (const file of [headless, buried]) {
      expect(await uploadKind(repair, file)).toBe('pdf');
      expect(await uploadKind(rotate, file)).toBeUndefined();
    }
    expect(await uploadKind(repair, broken('renamed-png-as.pdf'))).toBeUndefined();
    expect(await uploadKind(repair, broken('pdfplumber-zero-byte.pdf'))).toBeUndefined();
  });
});
