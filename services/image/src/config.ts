import { readSettings, setting, type Env } from '@quire/base';

/**
 * The image service's limits, read once when it starts: a bad value stops it then, naming the setting.
 * Every image is measured from its header before any pixel is decoded.
 */
export const imageSettings = {
  /**
   * Largest image (or TIFF page) accepted, in megapixels. JPEGs go into the PDF without being decoded,
   * and PNG, TIFF and JPEG are decoded a strip at a time, so this bounds time and output size rather
   * than memory: 300 lets the 20000×14000 (280 MP) JPEG of the corpus through.
   */
  IMAGE_MAX_MEGAPIXELS: setting.wholeNumber(300, 1),
  /**
   * Largest image of a kind that must be held whole in memory while it is decoded (WebP, AVIF, GIF, BMP,
   * interlaced PNG, a progressive JPEG that cannot go in as it is): a 49 MP WebP took 360 MB over the
   * service's own, about 7.5 bytes a pixel, so 50 MP stays under 400 MB.
   */
  IMAGE_MAX_WHOLE_MEGAPIXELS: setting.wholeNumber(50, 1),
  /** Pages in one PDF made from images (a multi-page TIFF gives one page per frame). */
  IMAGE_MAX_PAGES: setting.wholeNumber(1000, 1),
  /** PDF to images: the pixels of all pages together, at the dpi asked for, in megapixels. */
  RENDER_MAX_MEGAPIXELS: setting.wholeNumber(1000, 1),
  /** PDF to images: the pixels of one page; pdftoppm holds a page whole (3 bytes a pixel). */
  RENDER_MAX_PAGE_MEGAPIXELS: setting.wholeNumber(50, 1),
  /**
   * PDF to images: the largest image a page may draw. pdftoppm decodes an image whole, whatever size it
   * is drawn at: a 17 KB file holding a 10-gigapixel image kept it busy for 94 s.
   */
  RENDER_MAX_IMAGE_MEGAPIXELS: setting.wholeNumber(300, 1),
  /**
   * Extract images: the images one PDF may give (one zip entry each). Their pixels are bounded by the two
   * settings above, all together and each one.
   */
  EXTRACT_MAX_IMAGES: setting.wholeNumber(1000, 1),
};

export interface ImageLimits {
  maxMegapixels: number;
  maxWholeMegapixels: number;
  maxPages: number;
  renderMegapixels: number;
  renderPageMegapixels: number;
  renderImageMegapixels: number;
  extractImages: number;
}

export function readImageLimits(env: Env = process.env): ImageLimits {
  const s = readSettings(imageSettings, env);
  return {
    maxMegapixels: s.IMAGE_MAX_MEGAPIXELS,
    maxWholeMegapixels: s.IMAGE_MAX_WHOLE_MEGAPIXELS,
    maxPages: s.IMAGE_MAX_PAGES,
    renderMegapixels: s.RENDER_MAX_MEGAPIXELS,
    renderPageMegapixels: s.RENDER_MAX_PAGE_MEGAPIXELS,
    renderImageMegapixels: s.RENDER_MAX_IMAGE_MEGAPIXELS,
    extractImages: s.EXTRACT_MAX_IMAGES,
  };
}

/** The limits every job works to, read when the service is loaded. */
export const limits: ImageLimits = readImageLimits();
