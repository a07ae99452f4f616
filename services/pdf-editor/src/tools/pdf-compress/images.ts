import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { deflateSync } from 'node:zlib';
import sharp from 'sharp';
import { mapLimit, type Job } from '@quire/base';
import { drawnImages, qpdf, similarity } from '@quire/pdf';
import { duplicateStreams } from './duplicates.ts';
import {
  applyUpdates,
  asDict,
  dumpObjects,
  objectNumber,
  referenced,
  relink,
  type JsonObject,
  type Objects,
  type PdfDict,
  type PdfValue,
} from '../../qpdf-json.ts';

/**
 * What a level may do to an image: the resolution it is brought down to, the SSIM it must keep, and
 * the lowest JPEG quality it may use (SSIM forgives a mostly white scan more than a reader would).
 */
export interface ImageTarget {
  dpi: number;
  ssim: number;
  quality: number;
}

/** What was done to the images of a file, for the result's properties. */
export interface ImageReport {
  images: number;
  recompressed: number;
  bytesSaved: number;
  /** Copies of an image or font program now sharing the first one. */
  deduplicated: number;
  /** Soft masks dropped because they hid nothing. */
  opaqueMasks: number;
}

/** Stream keys that describe page pieces only an authoring program reads, and pre-rendered thumbnails. */
const droppedPageKeys = ['/Thumb', '/PieceInfo'];

/** The highest JPEG quality tried, and how close the halving gets to the lowest that keeps the level's SSIM. */
const maxQuality = 95;
const qualityStep = 5;
/** A replacement must save at least this share of the image's bytes to be worth a lossy step. */
const minSaving = 0.1;

/**
 * Rewrites the photographic images of a PDF smaller: each brought down to the resolution it is shown
 * at (no further than the level's dpi), then re-encoded with mozjpeg at the lowest quality that keeps
 * the level's SSIM against the image as shown, or deflated when that is smaller; CMYK is only brought
 * down, in its own inks. Bilevel, stencil-masked, palette and exotic images are left as they are.
 * Copies of an image or font program are merged into one, soft masks that hide nothing dropped, page
 * thumbnails and authoring data removed, and with `dropMetadata` the catalog's XMP too (for a rewrite
 * that added XMP the original did not have).
 * Writes `out` and reports what changed; object streams and the best Flate are applied by the caller.
 */
export async function recompressImages(
  source: string,
  out: string,
  target: ImageTarget,
  job: Job,
  options: { dropMetadata?: boolean } = {},
): Promise<ImageReport> {
  const dir = join(job.workdir, `images-${Math.random().toString(36).slice(2)}`);
  await mkdir(dir, { recursive: true });
  const [shown, objects] = await Promise.all([displayedResolution(source, job), dumpObjects(source, dir, job)]);
  const moved = await duplicateStreams(source, objects, dir, job);
  // The copy kept is shown wherever its copies were.
  for (const [copy, kept] of moved) {
    const [c, k] = [copy, kept].map((ref) => objectNumber(`obj:${ref}`)) as [number, number];
    const at = Math.max(shown.get(c) ?? 0, shown.get(k) ?? 0);
    if (at > 0) shown.set(k, at);
  }
  const root = rootKey(objects);
  const updates: Objects = {};
  const report: ImageReport = { images: 0, recompressed: 0, bytesSaved: 0, deduplicated: moved.size, opaqueMasks: 0 };

  const pictures: { key: string; ppi: number }[] = [];
  const masks = new Map<string, string>();
  for (const [key, obj] of Object.entries(objects)) {
    const dict = asDict(obj.value);
    if (key === root && options.dropMetadata && dict && '/Metadata' in dict) {
      const { ['/Metadata']: _metadata, ...kept } = dict;
      updates[key] = { value: kept };
    }
    if (dict?.['/Type'] === '/Page' && droppedPageKeys.some((k) => k in dict)) {
      updates[key] = { value: Object.fromEntries(Object.entries(dict).filter(([k]) => !droppedPageKeys.includes(k))) };
    }
    // A copy goes once nothing points at it.
    if (moved.has(key.slice(4))) continue;
    const ppi = shown.get(objectNumber(key));
    if (obj.stream?.dict['/Subtype'] !== '/Image' || ppi === undefined) continue;
    report.images++;
    const mask = referenced(obj.stream.dict['/SMask']);
    if (mask && plainMask(objects[mask]?.stream?.dict)) masks.set(key, mask);
    if (worthALook(obj.stream.dict, objects)) pictures.push({ key, ppi });
  }
  // Only the images and masks worth a look are decoded, never the whole file: a scan decodes to many times its size.
  const wanted = new Set([...pictures.map((p) => p.key), ...masks.values()]);
  const decoded = wanted.size
    ? await dumpObjects(source, dir, job, { objects: [...wanted].map(objectNumber), decode: 'generalized' })
    : {};
  // Two at a time: encoding is CPU-bound, and a job should not take the whole machine.
  await mapLimit(pictures, 2, async ({ key, ppi }) => {
    const stream = decoded[key]?.stream;
    const replaced = stream && (await recompress(stream, ppi, target, objects).catch(() => undefined));
    if (!replaced) return;
    updates[key] = { stream: { dict: replaced.dict, datafile: replaced.file } };
    report.recompressed++;
    report.bytesSaved += replaced.saved;
  });
  // An image whose soft mask lets every pixel through is drawn the same without it.
  for (const [key, mask] of masks) {
    if (!(await opaque(decoded[mask]?.stream))) continue;
    const stream = updates[key]?.stream ?? { dict: objects[key]!.stream!.dict };
    const { ['/SMask']: _mask, ...dict } = stream.dict;
    updates[key] = { stream: { ...stream, dict } };
    report.opaqueMasks++;
  }
  // Whatever pointed at a copy points at the one kept.
  if (moved.size) {
    for (const [key, obj] of Object.entries(objects)) {
      if (key === 'trailer' || moved.has(key.slice(4))) continue;
      const update = updates[key];
      const stream = update?.stream ?? (obj.stream && { dict: obj.stream.dict });
      const value = update?.value ?? obj.value;
      if (stream) {
        const dict = relink(stream.dict, moved) as PdfDict;
        if (JSON.stringify(dict) !== JSON.stringify(stream.dict)) updates[key] = { stream: { ...stream, dict } };
      } else if (value !== undefined) {
        const relinked = relink(value, moved);
        if (JSON.stringify(relinked) !== JSON.stringify(value)) updates[key] = { value: relinked };
      }
    }
  }
  await applyUpdates(source, out, updates, dir, job);
  return report;
}

/** The key of the document catalog, as the trailer names it. */
function rootKey(objects: Objects): string | undefined {
  return referenced(asDict(objects.trailer?.value)?.['/Root']);
}

/** Whether a PDF's catalog carries XMP metadata. */
export async function hasMetadata(path: string, job: Job): Promise<boolean> {
  const trailer = await qpdf(['--show-object=trailer', path], job);
  const root = /\/Root (\d+) (\d+) R/.exec(trailer);
  return root !== null && /\/Metadata\s/.test(await qpdf([`--show-object=${root[1]},${root[2]}`, path], job));
}

/**
 * The highest resolution at which each image is drawn on any page (pixels per inch of the page), by
 * poppler's image listing; images drawn nowhere are absent, and left alone.
 */
async function displayedResolution(path: string, job: Job): Promise<Map<number, number>> {
  const ppi = new Map<number, number>();
  for (const { type, object, ppi: at } of await drawnImages(path, job)) {
    if (type === 'image') ppi.set(object, Math.max(ppi.get(object) ?? 0, at));
  }
  return ppi;
}

/** Filters qpdf decodes itself, so that an image behind them reaches us as pixels (or as its JPEG). */
const generalFilters = ['/FlateDecode', '/LZWDecode', '/ASCII85Decode', '/ASCIIHexDecode', '/RunLengthDecode'];
/** The most raw image bytes decoded at once: a 6000×6000 colour photo; bigger ones keep their encoding. */
const maxRawBytes = 6000 * 6000 * 3;

/**
 * Whether an image could become smaller without a visible change: 8-bit grey, RGB or CMYK, unmasked,
 * without a decode array, under general filters or JPEG (not CMYK JPEG, whose inversion conventions
 * differ between writers), of a size that decodes within bounds. Bilevel scans (CCITT, JBIG2), JPEG
 * 2000, palettes, stencil masks and colour keys keep their exact encoding.
 */
function worthALook(dict: PdfDict, objects: Objects): boolean {
  const filters = [dict['/Filter'] ?? []].flat();
  const known = filters.every(
    (f, i) => generalFilters.includes(String(f)) || (f === '/DCTDecode' && i === filters.length - 1),
  );
  const channels = components(dict['/ColorSpace'], objects);
  const pixels = Number(dict['/Width']) * Number(dict['/Height']);
  return (
    known &&
    channels !== undefined &&
    !(channels === 4 && filters.includes('/DCTDecode')) &&
    dict['/BitsPerComponent'] === 8 &&
    dict['/ImageMask'] !== true &&
    !('/Mask' in dict) &&
    !('/Decode' in dict) &&
    pixels > 0 &&
    pixels * channels <= maxRawBytes
  );
}

/** Colour components of an image's colour space when its pixels can be resampled as they are: grey, RGB or CMYK. */
function components(space: PdfValue | undefined, objects: Objects): number | undefined {
  const resolved = typeof space === 'string' && / R$/.test(space) ? objects[`obj:${space}`]?.value : space;
  if (resolved === '/DeviceGray' || resolved === '/CalGray') return 1;
  if (resolved === '/DeviceRGB' || resolved === '/CalRGB') return 3;
  if (resolved === '/DeviceCMYK') return 4;
  if (Array.isArray(resolved) && resolved[0] === '/ICCBased' && typeof resolved[1] === 'string') {
    const n = objects[`obj:${resolved[1]}`]?.stream?.dict['/N'];
    return n === 1 || n === 3 || n === 4 ? n : undefined;
  }
  if (Array.isArray(resolved) && (resolved[0] === '/CalGray' || resolved[0] === '/CalRGB')) {
    return resolved[0] === '/CalGray' ? 1 : 3;
  }
  return undefined;
}

/**
 * A smaller encoding of one image stream, or undefined when it should stay as it is. `ppi` is the
 * highest resolution the image is shown at.
 */
async function recompress(
  stream: NonNullable<JsonObject['stream']>,
  ppi: number,
  target: ImageTarget,
  objects: Objects,
): Promise<{ dict: PdfDict; file: string; saved: number } | undefined> {
  const { dict, datafile } = stream;
  const filter = dict['/Filter'];
  const jpeg = filter === '/DCTDecode' || (Array.isArray(filter) && filter.length === 1 && filter[0] === '/DCTDecode');
  // After qpdf's decoding, what is left is pixels or a JPEG: anything else stays as it was.
  if (!datafile || (filter !== undefined && !jpeg)) return undefined;
  const channels = components(dict['/ColorSpace'], objects);
  const width = Number(dict['/Width']);
  const height = Number(dict['/Height']);
  if (!channels || !(width > 0 && height > 0)) return undefined;

  const data = await readFile(datafile);
  if (!jpeg && data.length !== width * height * channels) return undefined;
  const scale = Math.min(1, target.dpi / ppi);
  const size = { width: Math.max(1, Math.round(width * scale)), height: Math.max(1, Math.round(height * scale)) };
  const resized = scale < 0.95;
  // CMYK only gets fewer pixels, in its own inks: a JPEG of it would go through RGB and shift its colours.
  if (channels === 4 && (jpeg || !resized)) return undefined;
  // What the image is now, as stored: the bytes a smaller encoding must beat.
  const before = jpeg ? data.length : deflateSync(data, { level: 9 }).length;

  const shown =
    channels === 4
      ? await resizePlanes(data, width, height, channels, size)
      : await (async () => {
          const input = jpeg ? sharp(data) : sharp(data, { raw: { width, height, channels: channels as 1 | 3 } });
          const out = await (resized ? input.resize(size.width, size.height, { kernel: 'lanczos3' }) : input)
            .toColourspace(channels === 1 ? 'b-w' : 'srgb')
            .raw()
            .toBuffer({ resolveWithObject: true });
          const { width: w, height: h } = out.info;
          return out.info.channels === channels ? { data: out.data, width: w, height: h } : undefined;
        })();
  if (!shown) return undefined;
  const { width: w, height: h } = shown;

  const encodings: { filter: string; bytes: Buffer }[] = [];
  const jpegBytes = channels === 4 ? undefined : await lowestQuality(shown.data, w, h, channels, target);
  if (jpegBytes) encodings.push({ filter: '/DCTDecode', bytes: jpegBytes });
  if (resized) encodings.push({ filter: '/FlateDecode', bytes: deflateSync(shown.data, { level: 9 }) });
  const best = encodings.sort((a, b) => a.bytes.length - b.bytes.length)[0];
  if (!best || best.bytes.length > before * (1 - minSaving)) return undefined;

  const file = `${datafile}.new`;
  await writeFile(file, best.bytes);
  const { ['/DecodeParms']: _parms, ['/Length']: _length, ...kept } = dict;
  return {
    dict: { ...kept, '/Width': w, '/Height': h, '/BitsPerComponent': 8, '/Filter': best.filter },
    file,
    saved: before - best.bytes.length,
  };
}

/**
 * The smallest mozjpeg encoding whose SSIM against `pixels` reaches `floor`: the level's lowest quality
 * when that is enough (most scans and photos), else the lowest passing one found by halving the range.
 */
async function lowestQuality(
  pixels: Buffer,
  width: number,
  height: number,
  channels: number,
  target: ImageTarget,
): Promise<Buffer | undefined> {
  const space = channels === 1 ? 'b-w' : 'srgb';
  const raw = { width, height, channels: channels as 1 | 3 };
  const encode = (quality: number) =>
    sharp(pixels, { raw }).toColourspace(space).jpeg({ quality, mozjpeg: true }).toBuffer();
  const keeps = async (bytes: Buffer) => {
    const back = await sharp(bytes).toColourspace(space).raw().toBuffer({ resolveWithObject: true });
    return back.info.channels === channels && similarity(pixels, back.data, width, height, channels) >= target.ssim;
  };
  let low = target.quality;
  const first = await encode(low);
  if (await keeps(first)) return first;
  let high = maxQuality;
  let best: Buffer | undefined;
  while (high - low > qualityStep) {
    const mid = Math.round((low + high) / 2);
    const bytes = await encode(mid);
    if (await keeps(bytes)) {
      best = bytes;
      high = mid;
    } else low = mid;
  }
  if (best) return best;
  const top = await encode(maxQuality);
  return (await keeps(top)) ? top : undefined;
}

/**
 * Interleaved pixels of `channels` inks brought to `size`, each ink on its own (as grey, so that no
 * channel is taken for alpha or colour and converted).
 */
async function resizePlanes(
  data: Buffer,
  width: number,
  height: number,
  channels: number,
  size: { width: number; height: number },
): Promise<{ data: Buffer; width: number; height: number }> {
  const pixels = width * height;
  const planes = await Promise.all(
    Array.from({ length: channels }, (_, c) => {
      const plane = Buffer.alloc(pixels);
      for (let i = 0; i < pixels; i++) plane[i] = data[i * channels + c]!;
      return (
        sharp(plane, { raw: { width, height, channels: 1 } })
          .resize(size.width, size.height, { kernel: 'lanczos3' })
          // One band stays one band: left alone, sharp hands it back as sRGB.
          .toColourspace('b-w')
          .raw()
          .toBuffer()
      );
    }),
  );
  if (planes.some((p) => p.length !== size.width * size.height)) throw new Error('an ink came back resized wrongly');
  const out = Buffer.alloc(size.width * size.height * channels);
  for (let c = 0; c < channels; c++) {
    const plane = planes[c]!;
    for (let i = 0; i < plane.length; i++) out[i * channels + c] = plane[i]!;
  }
  return { data: out, ...size };
}

/** A soft mask that is plain 8-bit coverage (no matte, no decode array), small enough to read whole. */
function plainMask(dict: PdfDict | undefined): boolean {
  if (!dict) return false;
  const filters = [dict['/Filter'] ?? []].flat();
  const pixels = Number(dict['/Width']) * Number(dict['/Height']);
  return (
    dict['/BitsPerComponent'] === 8 &&
    !('/Matte' in dict) &&
    !('/Decode' in dict) &&
    filters.every((f) => generalFilters.includes(String(f))) &&
    pixels > 0 &&
    pixels <= maxRawBytes
  );
}

/** Whether a decoded soft mask lets every pixel through (all 255). */
async function opaque(stream: JsonObject['stream'] | undefined): Promise<boolean> {
  if (!stream?.datafile || stream.dict['/Filter'] !== undefined) return false;
  const data = await readFile(stream.datafile);
  return data.length === Number(stream.dict['/Width']) * Number(stream.dict['/Height']) && data.every((b) => b === 255);
}
