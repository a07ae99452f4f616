/**
 * sign-pdf's signature as the site sends it: a PNG on a transparent background, drawn on a canvas from
 * a pen's strokes or from typed text in a handwriting font, or the visitor's own image as it is.
 */

/** The handwriting font of the typed signature (@fontsource/dancing-script, loaded with the page view). */
export const handwriting = '"Dancing Script", cursive';

/** A canvas as a PNG file, its transparency kept. */
export function canvasPng(canvas: HTMLCanvasElement, name: string): Promise<File | undefined> {
  return new Promise((resolve) =>
    canvas.toBlob((blob) => resolve(blob ? new File([blob], name, { type: 'image/png' }) : undefined), 'image/png'),
  );
}

/** Typed text drawn in the handwriting font, tightly, on a fresh canvas; undefined for blank text. */
export async function typedSignature(text: string): Promise<HTMLCanvasElement | undefined> {
  const name = text.trim();
  if (!name) return undefined;
  const size = 96;
  const font = `${size}px ${handwriting}`;
  await document.fonts.load(font, name);
  const canvas = document.createElement('canvas');
  const measure = canvas.getContext('2d')!;
  measure.font = font;
  canvas.width = Math.ceil(measure.measureText(name).width + size * 0.6);
  canvas.height = Math.ceil(size * 1.5);
  const g = canvas.getContext('2d')!;
  g.font = font;
  g.fillStyle = '#102040';
  g.textBaseline = 'middle';
  g.fillText(name, size * 0.3, canvas.height / 2);
  return canvas;
}

/** The page a `page` option shows: first, last, all (shown on the first) or a number within the PDF. */
export function shownPage(page: string, count: number): number {
  if (page === 'last') return count;
  const n = Number(page);
  return Number.isInteger(n) && n >= 1 && n <= count ? n : 1;
}
