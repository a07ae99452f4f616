import { readFile, writeFile } from 'node:fs/promises';
import { PDFDocument } from 'pdf-lib';
import { pdflibAddPlaceholder } from '@signpdf/placeholder-pdf-lib';
import { P12Signer } from '@signpdf/signer-p12';
import { SignPdf, Signer } from '@signpdf/signpdf';
import type { ToolOptions } from '@quire/catalog';
import { ToolError } from '@quire/base';
import type { ToolContext } from '@quire/service-kit';
import { workPath } from '../../pdf.ts';
import { checkSignature, type SignatureCheck } from './pdfsig.ts';

type SignContext = ToolContext<ToolOptions<'sign-pdf'>>;

/**
 * PKCS#7 detached (adbe.pkcs7.detached): what @signpdf's P12Signer makes. It writes no ESS
 * signing-certificate attribute, which PAdES (ETSI.CAdES.detached) requires, so the file does not
 * claim to be PAdES.
 */
const subFilter = 'adbe.pkcs7.detached';

/** Room for the signature: its certificates (at most the PKCS#12 file's size) and the rest. */
const signatureRoom = (p12: Buffer) => Math.max(8192, p12.length + 4096);

/**
 * Signs the PDF with the certificate and its password, kept in memory for this call only, then checks
 * with Poppler's pdfsig that the signature is valid and covers the whole file. Nothing rewrites the
 * file afterwards: the bytes signed are the bytes delivered.
 */
export async function signDigitally(
  ctx: SignContext,
  source: string,
  p12: Buffer,
): Promise<{ path: string; properties: Record<string, unknown> }> {
  const { name, reason, location, certificatePassword } = ctx.options;
  const doc = await PDFDocument.load(await readFile(source), { updateMetadata: false }).catch((err: unknown) => {
    throw new ToolError('damaged_input', undefined, { cause: err });
  });
  pdflibAddPlaceholder({
    pdfDoc: doc,
    name,
    reason,
    location,
    contactInfo: '',
    subFilter,
    signatureLength: signatureRoom(p12),
    appName: 'Quire',
  });
  // The placeholder's byte range must stay in plain text, outside any object stream.
  const unsigned = Buffer.from(await doc.save({ useObjectStreams: false }));
  const signed = await new SignPdf().sign(unsigned, new CertificateSigner(p12, certificatePassword));
  const out = workPath(ctx, 'signed.pdf');
  await writeFile(out, signed);
  const check: SignatureCheck = await checkSignature(ctx, out);
  return {
    path: out,
    properties: { subFilter, signer: check.signer, certificate: check.certificate, expired: check.expired },
  };
}

/** P12Signer, its failures told as the certificate's: a wrong password, or not a usable certificate. */
class CertificateSigner extends Signer {
  readonly #inner: P12Signer;
  constructor(p12: Buffer, passphrase: string) {
    super();
    this.#inner = new P12Signer(p12, { passphrase });
  }

  override async sign(pdf: Buffer, signingTime?: Date): Promise<Buffer> {
    try {
      return await this.#inner.sign(pdf, signingTime);
    } catch (err) {
      // forge says so when the password fails the file's integrity check (its MAC).
      if (/invalid password|MAC could not be verified/i.test(String(err)))
        throw new ToolError('wrong_certificate_password', undefined, { cause: new Error('PKCS#12 MAC mismatch') });
      throw new ToolError('invalid_certificate', undefined, { cause: err });
    }
  }
}
