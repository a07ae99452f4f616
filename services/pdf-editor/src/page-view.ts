import type { PDFPage } from '@cantoo/pdf-lib';

/** A rectangle in a page's own space: lower-left corner and size, in points. */
export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

/**
 * A page as a viewer shows it: the part it shows (the crop box within the media box) and the turn
 * /Rotate gives it, clockwise. The tools place and measure things "as seen" and map them back here.
 */
export interface PageView {
  box: Box;
  rotation: 0 | 90 | 180 | 270;
  /** Width and height as shown: a quarter turn swaps the sides. */
  width: number;
  height: number;
}

export function pageView(page: PDFPage): PageView {
  const box = visibleBox(page);
  const turn = ((Math.round(page.getRotation().angle / 90) % 4) + 4) % 4;
  const rotation = (turn * 90) as PageView['rotation'];
  const sideways = rotation === 90 || rotation === 270;
  return {
    box,
    rotation,
    width: sideways ? box.height : box.width,
    height: sideways ? box.width : box.height,
  };
}

/** A point as shown (from the shown page's lower-left corner, x right, y up) in the page's own space. */
export function toPageSpace(view: PageView, u: number, v: number): { x: number; y: number } {
  const { x, y, width: w, height: h } = view.box;
  switch (view.rotation) {
    case 0:
      return { x: x + u, y: y + v };
    case 90:
      return { x: x + w - v, y: y + u };
    case 180:
      return { x: x + w - u, y: y + h - v };
    case 270:
      return { x: x + v, y: y + h - u };
  }
}

/** Margins as shown (top, right, bottom, left) as the page's own (its top, right, bottom, left sides). */
export function marginsInPageSpace(
  view: PageView,
  shown: { top: number; right: number; bottom: number; left: number },
): { top: number; right: number; bottom: number; left: number } {
  const { top, right, bottom, left } = shown;
  switch (view.rotation) {
    case 0:
      return shown;
    case 90:
      return { top: right, right: bottom, bottom: left, left: top };
    case 180:
      return { top: bottom, right: left, bottom: top, left: right };
    case 270:
      return { top: left, right: top, bottom: right, left: bottom };
  }
}

/**
 * The part of the page a viewer shows: the crop box clipped to the media box, the media box when the
 * crop box is unreadable or outside it, Letter when neither is readable.
 */
export function visibleBox(page: PDFPage): Box {
  const read = (get: () => Box): Box | undefined => {
    try {
      const raw = get();
      // A box written with its corners the other way round ([612 792 0 0]) is the same rectangle.
      const b = {
        x: Math.min(raw.x, raw.x + raw.width),
        y: Math.min(raw.y, raw.y + raw.height),
        width: Math.abs(raw.width),
        height: Math.abs(raw.height),
      };
      return b.width > 0 && b.height > 0 && [b.x, b.y, b.width, b.height].every(Number.isFinite) ? b : undefined;
    } catch {
      return undefined;
    }
  };
  const media = read(() => page.getMediaBox());
  const crop = read(() => page.getCropBox());
  if (!media) return crop ?? { x: 0, y: 0, width: 612, height: 792 };
  if (!crop) return media;
  const x = Math.max(media.x, crop.x);
  const y = Math.max(media.y, crop.y);
  const width = Math.min(media.x + media.width, crop.x + crop.width) - x;
  const height = Math.min(media.y + media.height, crop.y + crop.height) - y;
  return width > 0 && height > 0 ? { x, y, width, height } : media;
}
