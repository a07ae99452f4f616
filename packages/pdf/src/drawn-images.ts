import { exec, timeLeft, type Job } from '@quire/base';

/** An image drawn on a page, as poppler's `pdfimages -list` lists it (masks included, typed so). */
export interface DrawnImage {
  page: number;
  /** `image`, `mask`, `smask` or `stencil`. */
  type: string;
  width: number;
  height: number;
  object: number;
  /** The resolution it is drawn at: pixels per inch of the page, the higher of its two axes. */
  ppi: number;
}

/**
 * Every image drawn on each page, without decoding any: poppler only reads their dictionaries. Empty
 * when poppler cannot read the file.
 */
export async function drawnImages(path: string, job: Job): Promise<DrawnImage[]> {
  const { code, stdout } = await exec('pdfimages', ['-list', path], {
    timeoutMs: timeLeft(job.deadline),
    signal: job.signal,
    maxOutput: 16 * 1024 * 1024,
  });
  if (code !== 0) return [];
  // page num type width height color comp bpc enc interp object gen x-ppi y-ppi size ratio
  return stdout
    .split('\n')
    .slice(2)
    .map((line) => line.trim().split(/\s+/))
    .filter((cols) => cols.length >= 14)
    .map((cols) => ({
      page: Number(cols[0]),
      type: cols[2]!,
      width: Number(cols[3]),
      height: Number(cols[4]),
      object: Number(cols[10]),
      ppi: Math.max(Number(cols[12]), Number(cols[13])),
    }))
    .filter((image) => Number.isFinite(image.object) && Number.isFinite(image.ppi));
}
