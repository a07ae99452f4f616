/**
 * What each compression level promises: images are brought down to at most `dpi` as shown on the page,
 * and every page still looks like the original, to an SSIM of at least `ssim` (1 is identical) when
 * both are rendered at 72 dpi; photographs are re-encoded at JPEG `quality` or better. The site and
 * the guide state these numbers; the service enforces them.
 */
export const compressionLevels = {
  low: { dpi: 200, ssim: 0.99, quality: 75 },
  recommended: { dpi: 150, ssim: 0.97, quality: 50 },
  extreme: { dpi: 100, ssim: 0.95, quality: 35 },
} as const;

export type CompressionLevel = keyof typeof compressionLevels;

/** The resolution at which the service compares pages before and after. */
export const compressionCheckDpi = 72;
