import { exec, timeLeft, type Job } from '@quire/base';

/** An image drawn on a page, as poppler's `pdfimages -list` lists it (masks included, typed so). */
export interface ListedImage {
  page: number;
  /** Its number in the listing, the one `pdfimages -p` puts in the file it writes. */
  num: number;
  /** `image`, `mask`, `smask` or `stencil`. */
  type: string;
  width: number;
  height: number;
  /** The object it is stored in; none for an image inline in the page's content. */
  object: number | undefined;
  /** The resolution it is drawn at: pixels per inch of the page, the higher of its two axes. */
  ppi: number;
}

/** An image stored in an object of its own. */
export type DrawnImage = ListedImage & { object: number };

/**
 * Every image drawn on each page, inline ones included, without decoding any: poppler only reads their
 * dictionaries. Empty when poppler cannot read the file.
 */
export async function listedImages(path: string, job: Job): Promise<ListedImage[]> {
  const { code, stdout } = await exec('pdfimages', ['-list', path], {
    timeoutMs: timeLeft(job.deadline),
    signal: job.signal,
    maxOutput: 16 * 1024 * 1024,
  });
  if (code !== 0) return [];
  // page num type width height color comp bpc enc interp object gen x-ppi y-ppi size ratio;
  // an inline image has "[inline]" in place of object and gen.
  return stdout
    .split('\n')
    .slice(2)
    .map((line) => line.trim().split(/\s+/))
    .map((cols) => (cols[10] === '[inline]' ? [...cols.slice(0, 10), 'inline', '', ...cols.slice(11)] : cols))
    .filter((cols) => cols.length >= 14)
    .map((cols) => ({
      page: Number(cols[0]),
      num: Number(cols[1]),
      type: cols[2]!,
      width: Number(cols[3]),
      height: Number(cols[4]),
      object: cols[10] === 'inline' ? undefined : Number(cols[10]),
      ppi: Math.max(Number(cols[12]), Number(cols[13])),
    }))
    .filter((image) => Number.isInteger(image.num) && Number.isFinite(image.ppi));
}

/** The images drawn that are stored in objects of their own (see listedImages). */
export async function drawnImages(path: string, job: Job): Promise<DrawnImage[]> {
  return (await listedImages(path, job)).filter((image): image is DrawnImage => Number.isFinite(image.object));
}
