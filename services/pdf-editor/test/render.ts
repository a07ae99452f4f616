import { execFileSync } from 'node:child_process';

/** A page rendered in grey as a viewer shows it (crop box, turned): width, height, one byte a pixel. */
export interface Grey {
  width: number;
  height: number;
  pixels: Buffer;
}

export function render(file: string, page: number, dpi = 24): Grey {
  const args = ['-cropbox', '-gray', '-r', String(dpi), '-f', String(page), '-l', String(page), file];
  const out = execFileSync('pdftoppm', args);
  const header = /^P5\s+(\d+)\s+(\d+)\s+255\s/.exec(out.subarray(0, 40).toString('latin1'))!;
  return { width: Number(header[1]), height: Number(header[2]), pixels: out.subarray(header[0].length) };
}

/** Where two renderings differ, as fractions of the page (x from the left, y from the top); undefined if nowhere. */
export function changedBox(a: Grey, b: Grey): { left: number; top: number; right: number; bottom: number } | undefined {
  if (a.width !== b.width || a.height !== b.height) throw new Error('renderings of different sizes');
  let [x0, y0, x1, y1] = [Infinity, Infinity, -Infinity, -Infinity];
  for (let y = 0; y < a.height; y++)
    for (let x = 0; x < a.width; x++) {
      const i = y * a.width + x;
      if (Math.abs(a.pixels[i]! - b.pixels[i]!) > 24)
        [x0, y0, x1, y1] = [Math.min(x0, x), Math.min(y0, y), Math.max(x1, x), Math.max(y1, y)];
    }
  if (x0 === Infinity) return undefined;
  return { left: x0 / a.width, top: y0 / a.height, right: (x1 + 1) / a.width, bottom: (y1 + 1) / a.height };
}

/** The share of pixels of two same-sized renderings that differ by more than `tolerance` levels of grey. */
export function differingShare(a: Grey, b: Grey, tolerance = 48): number {
  if (a.width !== b.width || a.height !== b.height) return 1;
  let n = 0;
  for (let i = 0; i < a.pixels.length; i++) if (Math.abs(a.pixels[i]! - b.pixels[i]!) > tolerance) n++;
  return n / a.pixels.length;
}

/** A rectangle of a rendering, in pixels from its top-left corner. */
export function cut(g: Grey, left: number, top: number, width: number, height: number): Grey {
  const pixels = Buffer.alloc(width * height);
  for (let y = 0; y < height; y++)
    g.pixels.copy(pixels, y * width, (top + y) * g.width + left, (top + y) * g.width + left + width);
  return { width, height, pixels };
}
