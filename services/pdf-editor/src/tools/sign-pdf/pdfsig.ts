import { exec, timeLeft, ToolError } from '@quire/base';
import type { ToolContext } from '@quire/service-kit';

export interface SignatureCheck {
  /** The signer's certificate's common name. */
  signer: string;
  /** What Poppler says of the certificate: trusted or not, expired, revoked... */
  certificate: string;
  expired: boolean;
}

/**
 * Poppler's own check of the file's one signature: valid, and over the whole file ("Total document
 * signed"). The certificate is judged too (a self-signed one is not trusted, an old one expired), but
 * offline: no OCSP request leaves the service.
 */
export async function checkSignature(ctx: ToolContext, file: string): Promise<SignatureCheck> {
  const { code, stdout, stderr } = await exec('pdfsig', ['-no-ocsp', file], {
    timeoutMs: timeLeft(ctx.deadline),
    signal: ctx.signal,
  });
  const line = (label: string) => new RegExp(`^\\s*- ${label}: (.*)$`, 'm').exec(stdout)?.[1]?.trim();
  const validation = line('Signature Validation');
  if (code !== 0 || validation !== 'Signature is Valid.' || !/^\s*- Total document signed$/m.test(stdout))
    throw new ToolError('internal', undefined, {
      cause: new Error(`pdfsig (${code}): ${validation ?? 'no signature'}; ${stderr.slice(0, 300)}`),
    });
  const certificate = line('Certificate Validation') ?? '';
  return {
    signer: line('Signer Certificate Common Name') ?? '',
    certificate: certificate.replace(/\.$/, ''),
    expired: /expired/i.test(certificate),
  };
}
