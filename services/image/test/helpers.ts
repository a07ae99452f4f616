import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Express } from 'express';
import sharp from 'sharp';
import yauzl from 'yauzl';
import { callTool, type ToolAnswer } from '@quire/service-kit/testing';

export const corpus = new URL('../../../../shared/corpus/', import.meta.url).pathname;
export const images = join(corpus, 'images');
export const image = (name: string) => join(images, name);

/** A scratch directory for the tests' own files (results, renderings), apart from WORK_DIR. */
export const scratch = mkdtempSync(join(tmpdir(), 'quire-image-test-'));
let n = 0;
export const scratchFile = (ext: string) => join(scratch, `f${++n}.${ext}`);

export function cleanScratch(): void {
  rmSync(scratch, { recursive: true, force: true });
}

export type Call = ToolAnswer;

/** Posts files (paths, or buffers with a name) and fields to a tool of the app, as the gateway does. */
export function call(
  app: Express,
  tool: string,
  files: (string | { name: string; data: Buffer })[],
  fields: Record<string, string> = {},
): Promise<Call> {
  return callTool(app, tool, { files, fields });
}

/** A successful call's result saved to a file. */
export async function result(
  app: Express,
  tool: string,
  files: Parameters<typeof call>[2],
  fields: Record<string, string> = {},
) {
  const r = await callTool(app, tool, { files, fields }, scratch);
  if (r.status !== 200 || !r.file) throw new Error(`${tool} answered ${r.status}: ${JSON.stringify(r.error)}`);
  return { ...r, path: r.file };
}

export function qpdfCheck(path: string): number {
  return spawnSync('qpdf', ['--check', path], { stdio: 'ignore' }).status ?? -1;
}

/** Each page's size in points, as pdfinfo reads it. */
export function pageSizes(path: string): { width: number; height: number }[] {
  const out = execFileSync('pdfinfo', ['-f', '1', '-l', '100000', path]).toString();
  return [...out.matchAll(/^Page\s+\d+ size:\s+([\d.]+) x ([\d.]+)/gm)].map((m) => ({
    width: Number(m[1]),
    height: Number(m[2]),
  }));
}

/** The images each page draws, with their object numbers and pixel sizes, from qpdf. */
export function pageImages(path: string): { page: number; object: number; width: number; height: number }[] {
  const out = execFileSync('qpdf', ['--show-pages', '--with-images', path]).toString();
  const found: { page: number; object: number; width: number; height: number }[] = [];
  let page = 0;
  for (const line of out.split('\n')) {
    if (/^page \d+:/.test(line)) page++;
    const m = /\/\w+: (\d+) 0 R, (\d+) x (\d+)/.exec(line);
    if (m) found.push({ page, object: Number(m[1]), width: Number(m[2]), height: Number(m[3]) });
  }
  return found;
}

/** An object's dictionary and its stream's bytes as stored (still compressed). */
export function rawObject(path: string, object: number): { dict: string; stream: Buffer } {
  const dict = execFileSync('qpdf', [`--show-object=${object}`, path]).toString();
  const stream = execFileSync('qpdf', [`--show-object=${object}`, '--raw-stream-data', path], {
    maxBuffer: 512 * 1024 * 1024,
  });
  return { dict, stream };
}

/** A page rendered by poppler, as raw RGB pixels. */
export async function render(
  path: string,
  page: number,
  dpi: number,
): Promise<{ data: Buffer; width: number; height: number }> {
  const out = scratchFile('x').replace(/\.x$/, '');
  execFileSync('pdftoppm', [
    '-r',
    String(dpi),
    '-f',
    String(page),
    '-l',
    String(page),
    '-singlefile',
    '-png',
    path,
    out,
  ]);
  const { data, info } = await sharp(`${out}.png`)
    .removeAlpha()
    .toColourspace('srgb')
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height };
}

/** Both images brought to 64×64 RGB and compared: the mean absolute difference of their samples, 0–255. */
export async function meanDifference(a: Buffer | string, b: Buffer | string): Promise<number> {
  const small = (x: Buffer | string) =>
    sharp(x, { limitInputPixels: false })
      .resize(64, 64, { fit: 'fill' })
      .removeAlpha()
      .toColourspace('srgb')
      .raw()
      .toBuffer();
  const [pa, pb] = await Promise.all([small(a), small(b)]);
  let sum = 0;
  for (let i = 0; i < pa.length; i++) sum += Math.abs(pa[i]! - pb[i]!);
  return sum / pa.length;
}

/** An image as a viewer shows it: EXIF orientation applied, transparency on white, as PNG bytes. */
export function displayed(path: string | Buffer, page = 0): Promise<Buffer> {
  return sharp(path, { page }).autoOrient().flatten({ background: '#ffffff' }).png().toBuffer();
}

/** A rendered page as PNG bytes, for comparison. */
export async function renderPng(path: string, page: number, dpi: number): Promise<Buffer> {
  const r = await render(path, page, dpi);
  return sharp(r.data, { raw: { width: r.width, height: r.height, channels: 3 } })
    .png()
    .toBuffer();
}

/** The entries of a ZIP, in order, with their bytes. */
export function unzip(path: string): Promise<{ name: string; data: Buffer }[]> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(readFileSync(path), { lazyEntries: true }, (err, zip) => {
      if (err || !zip) return reject(err ?? new Error('no zip'));
      const entries: { name: string; data: Buffer }[] = [];
      zip.on('entry', (entry: yauzl.Entry) => {
        zip.openReadStream(entry, (e, stream) => {
          if (e || !stream) return reject(e ?? new Error('no stream'));
          const chunks: Buffer[] = [];
          stream.on('data', (c: Buffer) => chunks.push(c));
          stream.on('end', () => {
            entries.push({ name: entry.fileName, data: Buffer.concat(chunks) });
            zip.readEntry();
          });
        });
      });
      zip.on('end', () => resolve(entries));
      zip.on('error', reject);
      zip.readEntry();
    });
  });
}

/** The MANIFEST's rows for the image folder: size, frames and EXIF orientation as recorded there. */
export function imageManifest(): {
  file: string;
  width?: number;
  height?: number;
  frames: number;
  orientation: number;
}[] {
  const [header, ...rows] = readFileSync(join(corpus, 'MANIFEST.tsv'), 'utf8').trimEnd().split('\n');
  const cols = header!.split('\t');
  return rows
    .map((row) => Object.fromEntries(row.split('\t').map((v, i) => [cols[i], v])) as Record<string, string>)
    .filter((r) => r.path!.startsWith('images/') && !r.path!.endsWith('.txt'))
    .map((r) => {
      const props = r.properties ?? '';
      const size = /(\d+)x(\d+)/.exec(props);
      return {
        file: r.path!.slice('images/'.length),
        ...(size ? { width: Number(size[1]), height: Number(size[2]) } : {}),
        frames: Number(/(\d+) frames/.exec(props)?.[1] ?? 1),
        orientation: Number(/Orientation=(\d)/.exec(props)?.[1] ?? 1),
      };
    });
}
