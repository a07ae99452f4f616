export type PageSize = 'fit' | 'a4' | 'letter';

/** Paper sizes in points, portrait. */
export const paper = { a4: [595.276, 841.89], letter: [612, 792] } as const;

/** White space around an image on a paper-sized page: half an inch. */
export const margin = 36;

/**
 * Used when an image does not say its resolution (or says something absurd): 72 dpi, so one pixel is
 * one point, PDF's own unit. It is what ImageMagick and most converters assume, what libvips reports
 * for a PNG without pHYs, and what most cameras write anyway, so a page's size does not jump between
 * files that do and do not carry it.
 */
export const defaultDpi = 72;

/** Resolutions outside this range are taken as mistakes (a JFIF aspect ratio read as dpi, say). */
const dpiRange = [36, 4800] as const;

/** The largest page side a PDF reader is required to handle (Acrobat's limit, 200 inches). */
export const maxPageSide = 14_400;

export function usableDpi(dpi: number | undefined): number {
  return dpi !== undefined && Number.isFinite(dpi) && dpi >= dpiRange[0] && dpi <= dpiRange[1] ? dpi : defaultDpi;
}

/** An image's size as shown: EXIF orientations 5 to 8 turn it a quarter. */
export function displayedSize(width: number, height: number, orientation: number): { width: number; height: number } {
  return orientation >= 5 && orientation <= 8 ? { width: height, height: width } : { width, height };
}

type Matrix = readonly [number, number, number, number, number, number];

/**
 * Maps the stored image's unit square (first row at the top, as PDF draws images) onto the unit
 * square of the image as displayed, for each EXIF orientation: the reader does the turning, so the
 * pixels (a JPEG's compressed data above all) go into the PDF untouched.
 */
const orientations: Record<number, Matrix> = {
  1: [1, 0, 0, 1, 0, 0],
  2: [-1, 0, 0, 1, 1, 0], // mirrored left to right
  3: [-1, 0, 0, -1, 1, 1], // turned 180°
  4: [1, 0, 0, -1, 0, 1], // mirrored top to bottom
  5: [0, -1, -1, 0, 1, 1], // transposed
  6: [0, -1, 1, 0, 0, 1], // to be turned 90° clockwise
  7: [0, 1, 1, 0, 0, 0], // transversed
  8: [0, 1, -1, 0, 1, 0], // to be turned 90° anticlockwise
};

export interface Placement {
  width: number;
  height: number;
  matrix: Matrix;
}

/**
 * The page for one image and where the image goes on it.
 * - `fit`: the page is the image at its resolution (at most 200 inches a side, scaled down to fit).
 * - `a4`, `letter`: the paper turned to follow the image (landscape when it is wider than tall), the
 *   image scaled to fill the space inside the margins, up or down, keeping its proportions, centred.
 */
export function placeImage(
  image: { width: number; height: number; orientation: number; dpi: number | undefined },
  pageSize: PageSize,
): Placement {
  const shown = displayedSize(image.width, image.height, image.orientation);
  let pageW: number;
  let pageH: number;
  let box: { x: number; y: number; w: number; h: number };
  if (pageSize === 'fit') {
    const dpi = usableDpi(image.dpi);
    const scale = Math.min(72 / dpi, maxPageSide / shown.width, maxPageSide / shown.height);
    pageW = shown.width * scale;
    pageH = shown.height * scale;
    box = { x: 0, y: 0, w: pageW, h: pageH };
  } else {
    const [short, long] = paper[pageSize];
    const landscape = shown.width > shown.height;
    pageW = landscape ? long : short;
    pageH = landscape ? short : long;
    const scale = Math.min((pageW - 2 * margin) / shown.width, (pageH - 2 * margin) / shown.height);
    const w = shown.width * scale;
    const h = shown.height * scale;
    box = { x: (pageW - w) / 2, y: (pageH - h) / 2, w, h };
  }
  const [a, b, c, d, e, f] = orientations[image.orientation] ?? orientations[1]!;
  return {
    width: pageW,
    height: pageH,
    matrix: [a * box.w, b * box.h, c * box.w, d * box.h, e * box.w + box.x, f * box.h + box.y],
  };
}
