/**
 * Big PDFs of the kind a scanner or a report generator writes: on every page a JPEG photo of its own
 * and lines of text, built from corpus images and a corpus paper's words. Deterministic, so every run
 * measures the same file.
 */
import { execFileSync } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import { join } from 'node:path';
import { deflateSync } from 'node:zlib';
import sharp from 'sharp';
import { corpus } from './lib.ts';

export interface BigPdfSpec {
  pages: number;
  /** The photo's width in pixels (its height is three quarters of it). */
  photoWidth: number;
  /** The photo's JPEG quality. */
  quality: number;
  /** Lines of text under the photo. */
  lines: number;
}

/** The 1,100-page, some 8 MB report: a small photo and 30 lines a page. */
export const reportSpec: BigPdfSpec = { pages: 1100, photoWidth: 200, quality: 60, lines: 30 };
/** The 5,000-page, some 100 MB scan-like file: a larger photo and 30 lines a page. */
export const hugeSpec: BigPdfSpec = { pages: 5000, photoWidth: 360, quality: 70, lines: 30 };

const photos = ['sharp-Landscape_1.jpg', 'sharp-Landscape_3.jpg', 'sharp-Portrait_6.jpg', 'pillow-hopper.jpg'];

/** Variants of the corpus photos, cropped differently, so that pages do not all carry the same bytes. */
async function photoVariants(width: number, quality: number): Promise<Buffer[]> {
  const height = Math.round((width * 3) / 4);
  const out: Buffer[] = [];
  for (const name of photos) {
    for (const position of ['centre', 'north', 'south', 'east', 'west'] as const) {
      const jpeg = await sharp(join(corpus, 'images', name))
        .rotate()
        .resize(width, height, { fit: 'cover', position })
        .jpeg({ quality })
        .toBuffer();
      out.push(jpeg);
    }
  }
  return out;
}

/** Words of a corpus paper, to make lines of real-looking text. */
function corpusWords(): string[] {
  const text = execFileSync('pdftotext', ['-q', join(corpus, 'pdf/pdfjs-tracemonkey.pdf'), '-']).toString();
  return text.split(/\s+/).filter((w) => /^[A-Za-z][A-Za-z,.;:-]{1,14}$/.test(w));
}

const escapePdf = (s: string) => s.replace(/[\\()]/g, (c) => `\\${c}`);

/** Writes the big PDF to `path`, streaming, and returns it. */
export async function makeBigPdf(path: string, spec: BigPdfSpec): Promise<string> {
  const variants = await photoVariants(spec.photoWidth, spec.quality);
  const words = corpusWords();
  const out = createWriteStream(path);
  let offset = 0;
  const offsets: number[] = [];
  const write = async (chunk: string | Buffer) => {
    offset += Buffer.byteLength(chunk);
    if (!out.write(chunk)) await once(out, 'drain');
  };
  const object = async (id: number, dict: string, stream?: Buffer) => {
    offsets[id] = offset;
    await write(`${id} 0 obj\n${dict}\n`);
    if (stream) {
      await write('stream\n');
      await write(stream);
      await write('\nendstream\n');
    }
    await write('endobj\n');
  };
  await write('%PDF-1.5\n%\xe2\xe3\xcf\xd3\n');
  // Objects: 1 catalog, 2 pages, 3 font, then per page: page, content, image.
  const pageId = (i: number) => 4 + i * 3;
  const width = spec.photoWidth;
  const height = Math.round((width * 3) / 4);
  await object(1, '<< /Type /Catalog /Pages 2 0 R >>');
  const kids = Array.from({ length: spec.pages }, (_, i) => `${pageId(i)} 0 R`).join(' ');
  await object(2, `<< /Type /Pages /Count ${spec.pages} /Kids [${kids}] >>`);
  await object(3, '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>');
  let w = 0;
  for (let i = 0; i < spec.pages; i++) {
    const lines: string[] = [];
    for (let l = 0; l < spec.lines; l++) {
      const line: string[] = [];
      for (let k = 0; k < 11; k++) line.push(words[w++ % words.length]!);
      lines.push(`(${escapePdf(line.join(' '))}) Tj T*`);
    }
    const ops = [
      `q 300 0 0 225 156 560 cm /Im0 Do Q`,
      `BT /F1 10 Tf 12 TL 56 520 Td (Page ${i + 1}) Tj T* ${lines.join(' ')} ET`,
    ].join('\n');
    const content = deflateSync(ops);
    const jpeg = variants[i % variants.length]!;
    await object(
      pageId(i),
      `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> /XObject << /Im0 ${pageId(i) + 2} 0 R >> >> /Contents ${pageId(i) + 1} 0 R >>`,
    );
    await object(pageId(i) + 1, `<< /Length ${content.length} /Filter /FlateDecode >>`, content);
    await object(
      pageId(i) + 2,
      `<< /Type /XObject /Subtype /Image /Width ${width} /Height ${height} /ColorSpace /DeviceRGB /BitsPerComponent 8 /Filter /DCTDecode /Length ${jpeg.length} >>`,
      jpeg,
    );
  }
  const size = pageId(spec.pages);
  const xref = offset;
  let table = `xref\n0 ${size}\n0000000000 65535 f \n`;
  for (let id = 1; id < size; id++) table += `${String(offsets[id]).padStart(10, '0')} 00000 n \n`;
  await write(table);
  await write(`trailer\n<< /Size ${size} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`);
  out.end();
  await once(out, 'finish');
  return path;
}
