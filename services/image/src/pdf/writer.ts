import { randomBytes } from 'node:crypto';
import { open, type FileHandle } from 'node:fs/promises';

/** Bytes for a PDF stream: in memory, or ranges of a file copied as they are (a JPEG, PNG IDAT chunks). */
export type StreamData = Buffer | { path: string; ranges: readonly (readonly [number, number])[] };

export type ColorSpace =
  | 'DeviceGray'
  | 'DeviceRGB'
  | 'DeviceCMYK'
  | { icc: Buffer; components: 1 | 3 | 4 }
  | { palette: Buffer; base: 'DeviceRGB' };

/** An image XObject: its samples, how they are compressed and how to read them. */
export interface PdfImage {
  width: number;
  height: number;
  bitsPerComponent: number;
  colorSpace: ColorSpace;
  filter: 'DCTDecode' | 'FlateDecode';
  /** The filter's parameters, as a PDF dictionary body, e.g. PNG predictors. */
  decodeParms?: string;
  decode?: readonly number[];
  data: StreamData;
  /** A soft mask: the image's alpha, greyscale, same size. */
  smask?: PdfImage;
}

export interface PdfPage {
  /** Page size in points. */
  width: number;
  height: number;
  image: PdfImage;
  /** The matrix that maps the image's unit square onto the page: [a b c d e f]. */
  matrix: readonly [number, number, number, number, number, number];
}

/** A number as PDF syntax: at most four decimals, never an exponent. */
export function num(n: number): string {
  const s = n.toFixed(4).replace(/\.?0+$/, '');
  return s === '-0' ? '0' : s;
}

function dataLength(data: StreamData): number {
  return Buffer.isBuffer(data) ? data.length : data.ranges.reduce((n, [, len]) => n + len, 0);
}

/**
 * Writes a PDF of image pages straight to a file, one object after another, copying image data from
 * the files that hold it: memory stays the same whatever the size or number of images. pdf-lib keeps
 * every image in memory until it saves, which is what this avoids.
 */
export class ImagePdfWriter {
  private pos = 0;
  private readonly offsets: number[] = [];
  private nextNumber = 3; // 1: catalog, 2: page tree
  private readonly kids: number[] = [];
  private pending: Buffer[] = [];
  private pendingBytes = 0;

  private constructor(
    private readonly fh: FileHandle,
    private readonly signal?: AbortSignal,
  ) {}

  static async create(path: string, signal?: AbortSignal): Promise<ImagePdfWriter> {
    const writer = new ImagePdfWriter(await open(path, 'w'), signal);
    // The comment of high bytes tells transfer programs that the file is binary.
    writer.put(Buffer.from('%PDF-1.7\n%\xe2\xe3\xcf\xd3\n', 'latin1'));
    return writer;
  }

  get pageCount(): number {
    return this.kids.length;
  }

  async addPage(page: PdfPage): Promise<void> {
    const image = await this.writeImage(page.image);
    const content = Buffer.from(`q ${page.matrix.map(num).join(' ')} cm /Im0 Do Q\n`, 'latin1');
    const contentRef = this.alloc();
    await this.writeStream(contentRef, '', content);
    const pageRef = this.alloc();
    this.writeObject(
      pageRef,
      `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 ${num(page.width)} ${num(page.height)}] ` +
        `/Resources << /XObject << /Im0 ${image} 0 R >> >> /Contents ${contentRef} 0 R >>`,
    );
    this.kids.push(pageRef);
    await this.flush();
  }

  /** Ends the document: page tree, catalog, cross-reference table and trailer. */
  async close(): Promise<void> {
    try {
      this.writeObject(
        2,
        `<< /Type /Pages /Kids [${this.kids.map((k) => `${k} 0 R`).join(' ')}] /Count ${this.kids.length} >>`,
      );
      this.writeObject(1, '<< /Type /Catalog /Pages 2 0 R >>');
      const info = this.alloc();
      this.writeObject(info, '<< /Producer (Quire) >>');
      const xref = this.pos;
      const lines = [`xref\n0 ${this.nextNumber}\n`, '0000000000 65535 f \n'];
      for (let n = 1; n < this.nextNumber; n++) {
        lines.push(
          `${String(this.offsets[n] ?? 0).padStart(10, '0')} 00000 ${this.offsets[n] === undefined ? 'f' : 'n'} \n`,
        );
      }
      const id = randomBytes(16).toString('hex');
      lines.push(
        `trailer\n<< /Size ${this.nextNumber} /Root 1 0 R /Info ${info} 0 R /ID [<${id}> <${id}>] >>\nstartxref\n${xref}\n%%EOF\n`,
      );
      this.put(Buffer.from(lines.join(''), 'latin1'));
      await this.flush();
    } finally {
      await this.fh.close();
    }
  }

  /** Closes the file without finishing it, after a failure. */
  async abort(): Promise<void> {
    await this.fh.close().catch(() => undefined);
  }

  private alloc(): number {
    return this.nextNumber++;
  }

  private async writeImage(image: PdfImage): Promise<number> {
    const smask = image.smask ? await this.writeImage(image.smask) : undefined;
    const colorSpace = await this.colorSpace(image.colorSpace);
    const ref = this.alloc();
    const dict = [
      '/Type /XObject /Subtype /Image',
      `/Width ${image.width} /Height ${image.height}`,
      `/ColorSpace ${colorSpace}`,
      `/BitsPerComponent ${image.bitsPerComponent}`,
      `/Filter /${image.filter}`,
      image.decodeParms ? `/DecodeParms << ${image.decodeParms} >>` : '',
      image.decode ? `/Decode [${image.decode.join(' ')}]` : '',
      smask ? `/SMask ${smask} 0 R` : '',
    ]
      .filter(Boolean)
      .join(' ');
    await this.writeStream(ref, dict, image.data);
    return ref;
  }

  private async colorSpace(cs: ColorSpace): Promise<string> {
    if (typeof cs === 'string') return `/${cs}`;
    if ('icc' in cs) {
      const ref = this.alloc();
      const alternate = cs.components === 1 ? 'DeviceGray' : cs.components === 3 ? 'DeviceRGB' : 'DeviceCMYK';
      await this.writeStream(ref, `/N ${cs.components} /Alternate /${alternate}`, cs.icc);
      return `[/ICCBased ${ref} 0 R]`;
    }
    const hival = cs.palette.length / 3 - 1;
    return `[/Indexed /${cs.base} ${hival} <${cs.palette.toString('hex')}>]`;
  }

  private writeObject(ref: number, body: string): void {
    this.offsets[ref] = this.pos;
    this.put(Buffer.from(`${ref} 0 obj\n${body}\nendobj\n`, 'latin1'));
  }

  private async writeStream(ref: number, dict: string, data: StreamData): Promise<void> {
    this.offsets[ref] = this.pos;
    const length = dataLength(data);
    this.put(Buffer.from(`${ref} 0 obj\n<< ${dict ? `${dict} ` : ''}/Length ${length} >>\nstream\n`, 'latin1'));
    if (Buffer.isBuffer(data)) this.put(data);
    else await this.copy(data.path, data.ranges);
    this.put(Buffer.from('\nendstream\nendobj\n', 'latin1'));
  }

  private async copy(path: string, ranges: readonly (readonly [number, number])[]): Promise<void> {
    await this.flush();
    const src = await open(path, 'r');
    try {
      const buf = Buffer.alloc(1 << 20);
      for (const [start, length] of ranges) {
        let done = 0;
        while (done < length) {
          this.signal?.throwIfAborted();
          const { bytesRead } = await src.read(buf, 0, Math.min(buf.length, length - done), start + done);
          if (bytesRead === 0) throw new Error(`${path} ended early`);
          await this.writeAll(buf.subarray(0, bytesRead));
          done += bytesRead;
          this.pos += bytesRead;
        }
      }
    } finally {
      await src.close();
    }
  }

  private put(buf: Buffer): void {
    this.pending.push(buf);
    this.pendingBytes += buf.length;
    this.pos += buf.length;
  }

  private async flush(): Promise<void> {
    if (this.pendingBytes === 0) return;
    const all = Buffer.concat(this.pending, this.pendingBytes);
    this.pending = [];
    this.pendingBytes = 0;
    await this.writeAll(all);
  }

  private async writeAll(buf: Buffer): Promise<void> {
    for (let at = 0; at < buf.length;) {
      const { bytesWritten } = await this.fh.write(buf, at, buf.length - at);
      at += bytesWritten;
    }
  }
}
