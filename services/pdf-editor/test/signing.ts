import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';

/** What the signing tests sign with, made fresh in a scratch folder: no private key is kept in the repository. */
export interface TestCertificates {
  /** A self-signed certificate valid now, in PKCS#12 with `password`. */
  valid: string;
  /** One whose validity ended in 2021, in PKCS#12 with `password`. */
  expired: string;
  /** The valid certificate as PEM: a certificate, but not PKCS#12. */
  pem: string;
  password: string;
  /** The valid certificate's common name. */
  signer: string;
}

export function makeCertificates(scratch: string): TestCertificates {
  const dir = mkdtempSync(join(scratch, 'certificates-'));
  const at = (name: string) => join(dir, name);
  const openssl = (...args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: 'pipe' });
  const password = 'correct horse';
  const signer = 'Quire Test Signer';
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
    '-days',
    '30',
    '-subj',
    `/CN=${signer}`,
  );
  // An expired one: `openssl ca` sets any validity dates (openssl 3.0's x509 has no -not_after).
  writeFileSync(at('index.txt'), '');
  writeFileSync(at('serial'), '01\n');
  writeFileSync(
    at('ca.cnf'),
    '[ca]\ndefault_ca=quick\n[quick]\ndatabase=index.txt\nnew_certs_dir=.\nserial=serial\ndefault_md=sha256\n' +
      'policy=any\nunique_subject=no\n[any]\ncommonName=supplied\n',
  );
  openssl('req', '-new', '-key', 'key.pem', '-subj', '/CN=Quire Expired Signer', '-out', 'old.csr');
  openssl(
    'ca',
    '-batch',
    '-config',
    'ca.cnf',
    '-selfsign',
    '-keyfile',
    'key.pem',
    '-in',
    'old.csr',
    '-startdate',
    '20200101000000Z',
    '-enddate',
    '20210101000000Z',
    '-out',
    'old.pem',
  );
  const p12 = (cert: string, out: string) =>
    openssl('pkcs12', '-export', '-inkey', 'key.pem', '-in', cert, '-out', out, '-passout', `pass:${password}`);
  p12('cert.pem', 'valid.p12');
  p12('old.pem', 'expired.p12');
  return { valid: at('valid.p12'), expired: at('expired.p12'), pem: at('cert.pem'), password, signer };
}

/**
 * A signature as the site sends one: dark strokes on a transparent background, 600 x 200 pixels, the
 * strokes in its left half only (so that a test can see what lies under the right half).
 */
export async function signatureImage(file: string, format: 'png' | 'jpeg' = 'png'): Promise<string> {
  const svg =
    '<svg xmlns="http://www.w3.org/2000/svg" width="600" height="200">' +
    '<path d="M20 150 C 60 20, 120 20, 140 120 S 220 180, 280 60" stroke="#102040" stroke-width="14" fill="none"/>' +
    '</svg>';
  const image = sharp(Buffer.from(svg));
  await (format === 'png' ? image.png() : image.flatten({ background: '#ffffff' }).jpeg()).toFile(file);
  return file;
}
