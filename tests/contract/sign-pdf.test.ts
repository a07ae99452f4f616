import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { changedBox, render } from '../../services/pdf-editor/test/render.ts';
import { makeCertificates, signatureImage, type TestCertificates } from '../../services/pdf-editor/test/signing.ts';
import { corpusDir } from '../lib/corpus.ts';
import { post, runTool } from '../lib/http.ts';
import { pageCount } from '../lib/pdf.ts';

const source = join(corpusDir, 'pdf', 'pypdf-pdflatex-outline.pdf');

let base: string;
let certs: TestCertificates;
let png: string;
beforeAll(async () => {
  base = inject('baseUrl');
  const scratch = mkdtempSync(join(tmpdir(), 'quire-sign-'));
  certs = makeCertificates(scratch);
  png = await signatureImage(join(scratch, 'signature.png'));
});

const pdfsig = (file: string) => spawnSync('pdfsig', ['-no-ocsp', file]).stdout.toString();

describe('sign-pdf', () => {
  it('draws the signature where it was placed and signs the whole file with the certificate', async () => {
    const { path, properties } = await runTool(base, 'sign-pdf', [source, png, certs.valid], {
      certificatePassword: certs.password,
      page: '1',
      x: '0.2',
      y: '0.3',
      size: '0.3',
    });
    expect(properties).toMatchObject({ digital: true, signer: certs.signer, expired: false, signedPages: [1] });
    const report = pdfsig(path);
    expect(report).toContain('Signature Validation: Signature is Valid.');
    expect(report).toContain('Total document signed');
    // The file as delivered is the file signed: its last bytes end the signed range.
    expect(readFileSync(path).subarray(-6).toString('latin1')).toContain('%%EOF');
    expect(pageCount(path)).toBe(4);
    const changed = changedBox(render(source, 1, 50), render(path, 1, 50))!;
    expect(changed.left).toBeGreaterThanOrEqual(0.19);
    expect(changed.top).toBeGreaterThanOrEqual(0.29);
    expect(changed.right).toBeLessThanOrEqual(0.51);
    expect(changed.bottom).toBeLessThan(0.45);
    expect(changedBox(render(source, 2, 30), render(path, 2, 30))).toBeUndefined();
    expect(execFileSync('pdftotext', [path, '-']).toString()).toBe(execFileSync('pdftotext', [source, '-']).toString());
  });

  it('answers a wrong certificate password and a file that is not a certificate with their codes', async () => {
    const wrong = await post(`${base}/api.php?tool=sign-pdf`, [source, certs.valid], { certificatePassword: 'nope' });
    expect([wrong.status, wrong.body.error?.code]).toEqual([400, 'wrong_certificate_password']);
    const pem = await post(`${base}/api.php?tool=sign-pdf`, [source, certs.pem], {
      certificatePassword: certs.password,
    });
    expect([pem.status, pem.body.error?.code]).toEqual([415, 'unsupported_type']);
  });

  it('signs with an expired certificate and says it is expired', async () => {
    const { path, properties } = await runTool(base, 'sign-pdf', [source, certs.expired], {
      certificatePassword: certs.password,
    });
    expect(properties).toMatchObject({ digital: true, expired: true });
    expect(pdfsig(path)).toContain('Certificate has Expired');
  });
});
