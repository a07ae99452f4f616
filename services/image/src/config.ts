import { envInt } from '@quire/service-kit';

/**
 * The service's limits, read when a job starts so that a setting takes effect on the next request.
 * Every image is measured from its header before any pixel is decoded.
 */
export const limits = {
  /**
   * Largest image (or TIFF page) accepted, in megapixels. JPEGs go into the PDF without being decoded,
   * and PNG, TIFF and JPEG are decoded a strip at a time, so this bounds time and output size rather
   * than memory: 300 lets the 20000×14000 (280 MP) JPEG of the corpus through.
   */
  maxMegapixels: () => envInt('IMAGE_MAX_MEGAPIXELS', 300),
  /**
   * Largest image of a kind that must be held whole in memory while it is decoded (WebP, GIF, BMP,
   * interlaced PNG, a progressive JPEG that cannot go in as it is): a 49 MP WebP took 360 MB over the
   * service's own, about 7.5 bytes a pixel, so 50 MP stays under 400 MB.
   */
  maxWholeMegapixels: () => envInt('IMAGE_MAX_WHOLE_MEGAPIXELS', 50),
  /** Pages in one PDF made from images (a multi-page TIFF gives one page per frame). */
  maxPages: () => envInt('IMAGE_MAX_PAGES', 1000),
  /** PDF to images: the pixels of all pages together, at the dpi asked for, in megapixels. */
  renderMegapixels: () => envInt('RENDER_MAX_MEGAPIXELS', 1000),
  /** PDF to images: the pixels of one page; pdftoppm holds a page whole (3 bytes a pixel). */
  renderPageMegapixels: () => envInt('RENDER_MAX_PAGE_MEGAPIXELS', 50),
  /**
   * PDF to images: the largest image a page may draw. pdftoppm decodes an image whole, whatever size it
   * is drawn at: a 17 KB file holding a 10-gigapixel image kept it busy for 94 s.
   */
  renderImageMegapixels: () => envInt('RENDER_MAX_IMAGE_MEGAPIXELS', 300),
};
