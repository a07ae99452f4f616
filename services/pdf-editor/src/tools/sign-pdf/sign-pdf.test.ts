import { execFileSync, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { corpus, encrypted, pages, pdf, scratch, text, useEditor } from '../../../test/helpers.ts';
import { changedBox, cut, render, type Grey } from '../../../test/render.ts';
import { makeCertificates, signatureImage, type TestCertificates } from '../../../test/signing.ts';

const { call } = useEditor();

let certs: TestCertificates;
let png: string;
let jpeg: string;
beforeAll(async () => {
  certs = makeCertificates(scratch);
  png = await signatureImage(join(scratch, 'signature.png'));
  jpeg = await signatureImage(join(scratch, 'signature.jpg'), 'jpeg');
});

/** Poppler's account of the file's signatures. */
function pdfsig(file: string): string {
  const r = spawnSync('pdfsig', ['-no-ocsp', file]);
  return r.stdout.toString();
}

/** The signature image's height over its width (600 x 200). */
const aspect = 1 / 3;

/**
 * Everything that changed on the page lies in the box asked for (shares of the page as shown, a
 * rendering's pixel of slack), and something did: the signature is there and nowhere else.
 */
function expectChangedOnlyIn(
  before: Grey,
  after: Grey,
  box: { left: number; top: number; right: number; bottom: number },
  what: string,
): void {
  const changed = changedBox(before, after);
  expect(changed, `${what}: nothing drawn`).toBeDefined();
  const slack = 2 / Math.min(before.width, before.height);
  expect(changed!.left, what).toBeGreaterThanOrEqual(box.left - slack);
  expect(changed!.top, what).toBeGreaterThanOrEqual(box.top - slack);
  expect(changed!.right, what).toBeLessThanOrEqual(box.right + slack);
  expect(changed!.bottom, what).toBeLessThanOrEqual(box.bottom + slack);
  // The strokes span most of the box's height and its left half.
  expect(changed!.bottom - changed!.top, what).toBeGreaterThan((box.bottom - box.top) * 0.6);
}

/** The dark pixels of a rendering, as a set of indices. */
const dark = (g: Grey) => new Set([...g.pixels.keys()].filter((i) => g.pixels[i]! < 100));

describe('sign-pdf', () => {
  it('places the drawn signature where asked and leaves the rest of the page as it was', async () => {
    const source = pdf('pypdf-pdflatex-outline.pdf');
    const place = { x: 0.5, y: 0.7, size: 0.3 };
    const r = await call('sign-pdf', [source, png], { page: '2', ...mapValues(place) });
    expect(r.status, r.error?.message).toBe(200);
    expect(pages(r.file)).toBe(pages(source));
    expect(r.props).toMatchObject({ signedPages: [2], digital: false });
    const dpi = 60;
    const [w, h] = pageSize(source, 2);
    const box = { left: 0.5, top: 0.7, right: 0.8, bottom: 0.7 + (0.3 * w * aspect) / h };
    expectChangedOnlyIn(render(source, 2, dpi), render(r.file, 2, dpi), box, 'page 2');
    // The other pages are untouched.
    for (const p of [1, 3, 4])
      expect(changedBox(render(source, p, 30), render(r.file, p, 30)), `page ${p}`).toBeUndefined();
    expect(text(r.file)).toBe(text(source));
    expect(r.name).toBe('pypdf-pdflatex-outline.pdf');
  });

  it('keeps a transparent PNG transparent: the text under it still shows', async () => {
    const source = pdf('pdfplumber-federal-register-2020-17221.pdf');
    const r = await call('sign-pdf', [png, source], { page: 'first', x: '0.1', y: '0.2', size: '0.8' });
    expect(r.status, r.error?.message).toBe(200);
    const dpi = 60;
    const [before, after] = [render(source, 1, dpi), render(r.file, 1, dpi)];
    // The box's right half holds no stroke: every dark pixel of the text there is still dark.
    const [w, h] = pageSize(source, 1);
    const top = Math.round(0.2 * before.height);
    const height = Math.round(((0.8 * w * aspect) / h) * before.height);
    const left = Math.round(0.55 * before.width);
    const width = Math.round(0.3 * before.width);
    const textUnder = dark(cut(before, left, top, width, height));
    expect(textUnder.size).toBeGreaterThan(100);
    const still = dark(cut(after, left, top, width, height));
    expect([...textUnder].filter((i) => still.has(i)).length / textUnder.size).toBeGreaterThan(0.97);
    // And the strokes did land in the left half.
    expect(changedBox(cut(before, 0, top, left, height), cut(after, 0, top, left, height))).toBeDefined();
  });

  it('signs every page, upright however each is turned, with the date under it', async () => {
    const source = pdf('qpdf-rotated-20-pages.pdf'); // pages turned 0, 180, 270, ...
    const r = await call('sign-pdf', [source, jpeg], { page: 'all', x: '0.1', y: '0.1', size: '0.4', date: 'true' });
    expect(r.status, r.error?.message).toBe(200);
    expect(r.props.signedPages).toHaveLength(20);
    const today = new Date().toISOString().slice(0, 10);
    for (const p of [1, 2, 3, 4, 20]) {
      const [w, h] = pageSize(source, p);
      const imageBottom = 0.1 + (0.4 * w * aspect) / h;
      // The date's line below the image: its size a twelfth of the image's width, at most 14 points.
      const dateBottom = imageBottom + (Math.min((0.4 * w) / 12, 14) * 1.45) / h;
      expectChangedOnlyIn(
        render(source, p, 40),
        render(r.file, p, 40),
        { left: 0.1, top: 0.1, right: 0.5, bottom: dateBottom },
        `page ${p}`,
      );
      expect(text(r.file, p), `page ${p}`).toContain(today);
    }
  });

  it('signs digitally with a PKCS#12 certificate: valid, over the whole file, the drawn signature in place', async () => {
    const source = pdf('pypdf-pdflatex-outline.pdf');
    const r = await call('sign-pdf', [source, png, certs.valid], {
      certificatePassword: certs.password,
      reason: 'Approved',
      location: 'Lyon',
      x: '0.1',
      y: '0.1',
      size: '0.25',
    });
    expect(r.status, r.error?.message).toBe(200);
    expect(r.props).toMatchObject({ digital: true, signer: certs.signer, expired: false, signedPages: [4] });
    const report = pdfsig(r.file);
    expect(report).toContain('Signature Validation: Signature is Valid.');
    expect(report).toContain('Total document signed');
    expect(report).toContain(`Signer Certificate Common Name: ${certs.signer}`);
    expect(report).toContain('Signature Type: adbe.pkcs7.detached');
    // The reason and place are in the signature's dictionary.
    const raw = execFileSync('qpdf', ['--qdf', '--object-streams=disable', r.file, '-']).toString('latin1');
    expect(raw).toContain('/Reason (Approved)');
    expect(raw).toContain('/Location (Lyon)');
    const [w, h] = pageSize(source, 4);
    const box = { left: 0.1, top: 0.1, right: 0.35, bottom: 0.1 + (0.25 * w * aspect) / h };
    expectChangedOnlyIn(render(source, 4, 60), render(r.file, 4, 60), box, 'page 4');
    expect(text(r.file)).toBe(text(source));
  });

  it('signs digitally alone, without an image, and opens an encrypted input with its password', async () => {
    const source = join(corpus, 'pdf-encrypted/qpdf-20-pages-user-owner.pdf');
    const r = await call('sign-pdf', [certs.valid, source], { certificatePassword: certs.password, password: 'user' });
    expect(r.status, r.error?.message).toBe(200);
    expect(r.props).toMatchObject({ digital: true, expired: false });
    expect(r.props.signedPages).toBeUndefined();
    expect(encrypted(r.file)).toBe(false);
    expect(pdfsig(r.file)).toContain('Signature Validation: Signature is Valid.');
    expect(pdfsig(r.file)).toContain('Total document signed');
    for (const p of [1, 20]) {
      expect(text(r.file, p)).toBe(text(source, p, 'user'));
      expect(changedBox(render(decrypted(source, 'user'), p, 30), render(r.file, p, 30)), `page ${p}`).toBeUndefined();
    }
    const locked = await call('sign-pdf', [source, certs.valid], { certificatePassword: certs.password });
    expect(locked.error?.code).toBe('password_required');
  });

  it('signs with an expired certificate and says so', async () => {
    const r = await call('sign-pdf', [pdf('qpdf-11-pages.pdf'), certs.expired], {
      certificatePassword: certs.password,
    });
    expect(r.status, r.error?.message).toBe(200);
    expect(r.props).toMatchObject({ digital: true, expired: true, signer: 'Quire Expired Signer' });
    const report = pdfsig(r.file);
    expect(report).toContain('Signature Validation: Signature is Valid.');
    expect(report).toContain('Certificate has Expired');
  });

  it('refuses a wrong certificate password, a certificate that is not PKCS#12, and nothing to sign with', async () => {
    const source = pdf('qpdf-11-pages.pdf');
    const wrong = await call('sign-pdf', [source, certs.valid], { certificatePassword: 'not it' });
    expect([wrong.status, wrong.error?.code]).toEqual([400, 'wrong_certificate_password']);
    expect(wrong.error?.message).not.toContain('not it');
    const none = await call('sign-pdf', [source, certs.valid]);
    expect(none.error?.code).toBe('wrong_certificate_password');
    const pem = await call('sign-pdf', [source, certs.pem], { certificatePassword: certs.password });
    expect([pem.status, pem.error?.code]).toEqual([415, 'unsupported_type']);
    expect(pem.error?.message).toContain('cert.pem');
    const nothing = await call('sign-pdf', [source]);
    expect([nothing.status, nothing.error?.code]).toEqual([400, 'missing_file']);
    const twoImages = await call('sign-pdf', [source, png, jpeg]);
    expect([twoImages.status, twoImages.error?.code]).toEqual([400, 'too_many_files']);
    const noPdf = await call('sign-pdf', [png, certs.valid], { certificatePassword: certs.password });
    expect([noPdf.status, noPdf.error?.code]).toEqual([400, 'missing_file']);
    const past = await call('sign-pdf', [source, png], { page: '12' });
    expect([past.status, past.error?.code]).toEqual([400, 'invalid_option']);
    const outside = await call('sign-pdf', [source, png], { x: '1.5' });
    expect([outside.status, outside.error?.code]).toEqual([400, 'invalid_option']);
  });
});

/** Numbers as the form fields they arrive as. */
function mapValues(o: Record<string, number>): Record<string, string> {
  return Object.fromEntries(Object.entries(o).map(([k, v]) => [k, String(v)]));
}

/** A page's width and height as shown, in points (pdfinfo's size, turned). */
function pageSize(file: string, page: number): [number, number] {
  const out = execFileSync('pdfinfo', ['-f', String(page), '-l', String(page), file]).toString();
  const size = /^Page\s+\d+\s+size:\s+([\d.]+) x ([\d.]+)/m.exec(out)!;
  const rot = Number(/^Page\s+\d+\s+rot:\s+(\d+)/m.exec(out)![1]);
  const [w, h] = [Number(size[1]), Number(size[2])];
  return rot % 180 === 0 ? [w, h] : [h, w];
}

function decrypted(file: string, password: string): string {
  const out = join(scratch, 'decrypted.pdf');
  execFileSync('qpdf', [`--password=${password}`, '--decrypt', file, out]);
  return out;
}
