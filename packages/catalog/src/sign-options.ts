import { z } from 'zod';
import { boolField } from './options.ts';

/** A share of the page as shown (0 at its left or top edge, 1 at the other). */
const share = (description: string, fallback: number) =>
  z.coerce.number().min(0).max(1).default(fallback).describe(description);

/** A line of the digital signature's dictionary, as a reader shows it in the signature's properties. */
const signatureLine = (description: string) =>
  z
    .string()
    .trim()
    .max(200)
    .refine((v) => !/\p{Cc}/u.test(v), { message: 'it must be one line, without control characters' })
    .default('')
    .describe(description);

/**
 * Sign PDF's options. The signature image (PNG or JPEG) and the certificate (PKCS#12) come as files;
 * these say where the image goes and what the digital signature says. The certificate's password is
 * used for its request only.
 */
export const signOptions = z.object({
  page: z
    .string()
    .trim()
    .regex(/^(first|last|all|[1-9]\d{0,5})$/, { message: 'page must be first, last, all or a page number' })
    .default('last')
    .describe('The page the signature goes on: first, last, all, or a page number'),
  x: share("The signature's left edge, as a share of the page's width from its left", 0.55),
  y: share("The signature's top edge, as a share of the page's height from its top", 0.8),
  size: z.coerce
    .number()
    .min(0.02)
    .max(1)
    .default(0.3)
    .describe("The signature's width, as a share of the page's width"),
  date: boolField(false).describe('Write the date of signing (UTC, YYYY-MM-DD) under the signature'),
  certificatePassword: z
    .string()
    .max(1000)
    .default('')
    .meta({ format: 'password', description: "The certificate's password, used for this request only" }),
  name: signatureLine("The signer's name the digital signature gives (by default, the certificate's)"),
  reason: signatureLine('Why the document is signed, in the digital signature'),
  location: signatureLine('Where it is signed, in the digital signature'),
});
