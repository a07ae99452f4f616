import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { encodePng, type RawImage } from '../png.ts';
import type { PdfPage } from '../pdfjs.ts';
import { apply, type Matrix } from './matrix.ts';
import type { Box } from './types.ts';

export interface PlacedImage extends Box {
  file: string;
  pxWidth: number;
  pxHeight: number;
}

export interface ImageOptions {
  /** Where kept images are written; none are kept without it. */
  imageDir?: string;
  imagePrefix: string;
  /** Give up fetching one image after this long. */
  imageTimeoutMs?: number;
}

/** Images kept per page: a page tiled with thousands of small images is not worth a file each. */
const maxKept = 200;
/** Image boxes noted per page, for the same reason. */
const maxBoxes = 1000;

/** The images a page paints: where each one went, and the visible ones written out as PNG files. */
export class PageImages {
  /** The kept images, once `done`. */
  readonly kept: PlacedImage[] = [];
  /** Where every image was painted, kept or not (page-sized backgrounds aside). */
  readonly boxes: Box[] = [];
  /** Images painted on the page, including those not kept. */
  count = 0;
  private readonly pending: Promise<void>[] = [];

  constructor(
    private readonly page: PdfPage,
    private readonly opts: ImageOptions,
    private readonly width: number,
    private readonly height: number,
  ) {}

  /** An image the page refers to by id, painted into the unit square of `ctm`. */
  paintObject(id: string, ctm: Matrix): void {
    this.place(ctm, () => this.fetch(id));
  }

  /** An image inlined in the content stream. */
  paintInline(value: unknown, ctm: Matrix): void {
    const img = asRawImage(value);
    this.place(ctm, async () => img);
  }

  /** An image that is counted but not kept (a stencil mask, a repeat). */
  paintUnkept(): void {
    this.count++;
  }

  /** The kept images, top to bottom and left to right, once all are written. */
  async done(): Promise<PlacedImage[]> {
    await Promise.all(this.pending);
    this.kept.sort((a, b) => a.top - b.top || a.x0 - b.x0);
    return this.kept;
  }

  private place(ctm: Matrix, fetch: () => Promise<RawImage | undefined>): void {
    this.count++;
    const corners = [apply(ctm, 0, 0), apply(ctm, 1, 0), apply(ctm, 0, 1), apply(ctm, 1, 1)];
    const xs = corners.map((c) => c[0]);
    const ys = corners.map((c) => c[1]);
    const box = {
      x0: Math.max(0, Math.min(...xs)),
      x1: Math.min(this.width, Math.max(...xs)),
      top: Math.max(0, Math.min(...ys)),
      bottom: Math.min(this.height, Math.max(...ys)),
    };
    const pageArea = this.width * this.height;
    if (this.boxes.length < maxBoxes && (box.x1 - box.x0) * (box.bottom - box.top) < 0.9 * pageArea) {
      this.boxes.push(box);
    }
    const { imageDir, imagePrefix } = this.opts;
    if (!imageDir || box.x1 - box.x0 < 4 || box.bottom - box.top < 4) return;
    if (this.kept.length + this.pending.length >= maxKept) return;
    const index = this.count;
    this.pending.push(
      (async () => {
        const raw = await fetch();
        if (!raw) return;
        const png = encodePng(raw);
        if (!png) return;
        const file = join(imageDir, `${imagePrefix}-${index}.png`);
        await writeFile(file, png);
        this.kept.push({ ...box, file, pxWidth: png.readUInt32BE(16), pxHeight: png.readUInt32BE(20) });
      })(),
    );
  }

  /** A decoded image from pdf.js's object store, or undefined if it does not come in time. */
  private fetch(id: string): Promise<RawImage | undefined> {
    const objs = id.startsWith('g_') ? this.page.commonObjs : this.page.objs;
    return new Promise((resolve) => {
      const timer = setTimeout(() => resolve(undefined), this.opts.imageTimeoutMs ?? 5000);
      try {
        objs.get(id, (value: unknown) => {
          clearTimeout(timer);
          resolve(asRawImage(value));
        });
      } catch {
        clearTimeout(timer);
        resolve(undefined);
      }
    });
  }
}

function asRawImage(value: unknown): RawImage | undefined {
  const v = value as Partial<RawImage> | null | undefined;
  if (!v || typeof v.width !== 'number' || typeof v.height !== 'number' || !v.data || typeof v.kind !== 'number')
    return undefined;
  return { width: v.width, height: v.height, kind: v.kind, data: v.data };
}
