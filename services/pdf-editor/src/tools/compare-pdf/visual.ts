import { readFile } from 'node:fs/promises';
import { mapLimit } from '@quire/base';
import { parsePgm, renderSpan, type Grey } from '@quire/pdf';
import type { ToolContext } from '@quire/service-kit';
import type { Mark } from './diff.ts';
import type { Highlight } from './report.ts';
import type { PageSize } from './words.ts';

/** Fine enough to see a changed letter or line of a drawing (a pixel is 1.44 pt), quick on long files. */
const dpi = 50;
/** Pixels are compared in squares of this side (about 6 pt), which is what a highlight is made of. */
const cell = 4;
/** Mean grey difference in a square that counts as a change: above anti-aliasing and scanner noise. */
const level = 20;
/** Changed squares this close (in squares) belong to one highlighted area: a word, not its letters. */
const reach = 2;

/**
 * Where two documents' pages look different, by page index: the areas whose pixels differ, the same
 * on both sides; a page only one of them has is highlighted whole on its side.
 */
export async function pixelChanges(
  ctx: ToolContext,
  paths: [string, string],
  sizes: [PageSize[], PageSize[]],
): Promise<{ first: Highlight[][]; second: Highlight[][]; areas: number }> {
  const count = Math.max(sizes[0].length, sizes[1].length);
  const rendered = await mapLimit(paths, 2, async (path, i) =>
    sizes[i]!.length
      ? renderSpan(path, { first: 1, last: sizes[i]!.length, dpi, cropBox: true }, ctx, ctx.workdir)
      : new Map<number, string>(),
  );
  const grey = async (side: number, page: number): Promise<Grey | undefined> => {
    const file = rendered[side]!.get(page);
    return file ? parsePgm(await readFile(file)) : undefined;
  };
  const first: Highlight[][] = [];
  const second: Highlight[][] = [];
  let areas = 0;
  for (let p = 0; p < count; p++) {
    const [sizeA, sizeB] = [sizes[0][p], sizes[1][p]];
    if (!sizeA || !sizeB) {
      first.push(sizeA ? [whole(sizeA, 'removed')] : []);
      second.push(sizeB ? [whole(sizeB, 'added')] : []);
      areas++;
      continue;
    }
    const [a, b] = await Promise.all([grey(0, p + 1), grey(1, p + 1)]);
    const boxes = a && b ? differingAreas(a, b) : undefined;
    // Pages of other sizes, or one that does not render, differ as a whole.
    const found = boxes ?? [{ x0: 0, y0: 0, x1: 1, y1: 1 }];
    areas += found.length;
    const scaled = (size: PageSize) =>
      found.map((f) => ({
        box: { x0: f.x0 * size.width, y0: f.y0 * size.height, x1: f.x1 * size.width, y1: f.y1 * size.height },
        mark: 'changed' as const,
      }));
    first.push(scaled(sizeA));
    second.push(scaled(sizeB));
  }
  return { first, second, areas };
}

const whole = (size: PageSize, mark: Mark): Highlight => ({
  box: { x0: 0, y0: 0, x1: size.width, y1: size.height },
  mark,
});

type Fraction = { x0: number; y0: number; x1: number; y1: number };

/**
 * The areas where two renderings of one size differ, as fractions of the page from its top left;
 * undefined when their sizes differ by more than a pixel's rounding.
 */
export function differingAreas(a: Grey, b: Grey): Fraction[] | undefined {
  if (Math.abs(a.width - b.width) > 1 || Math.abs(a.height - b.height) > 1) return undefined;
  const width = Math.min(a.width, b.width);
  const height = Math.min(a.height, b.height);
  const cols = Math.ceil(width / cell);
  const rows = Math.ceil(height / cell);
  const changed = new Uint8Array(cols * rows);
  for (let r = 0; r < rows; r++)
    for (let c = 0; c < cols; c++) {
      let sum = 0;
      let n = 0;
      for (let y = r * cell; y < Math.min(height, (r + 1) * cell); y++)
        for (let x = c * cell; x < Math.min(width, (c + 1) * cell); x++, n++)
          sum += Math.abs(a.data[y * a.width + x]! - b.data[y * b.width + x]!);
      if (sum / n > level) changed[r * cols + c] = 1;
    }
  return groups(changed, cols, rows).map(({ c0, r0, c1, r1 }) => ({
    x0: (c0 * cell) / width,
    y0: (r0 * cell) / height,
    x1: Math.min(width, (c1 + 1) * cell) / width,
    y1: Math.min(height, (r1 + 1) * cell) / height,
  }));
}

/** Changed squares gathered into areas (squares within `reach` of each other), each its bounding box. */
function groups(changed: Uint8Array, cols: number, rows: number) {
  const seen = new Uint8Array(changed.length);
  const found: { c0: number; r0: number; c1: number; r1: number }[] = [];
  for (let start = 0; start < changed.length; start++) {
    if (!changed[start] || seen[start]) continue;
    seen[start] = 1;
    const box = { c0: start % cols, r0: Math.floor(start / cols), c1: start % cols, r1: Math.floor(start / cols) };
    const queue = [start];
    while (queue.length) {
      const at = queue.pop()!;
      const [c, r] = [at % cols, Math.floor(at / cols)];
      box.c0 = Math.min(box.c0, c);
      box.c1 = Math.max(box.c1, c);
      box.r0 = Math.min(box.r0, r);
      box.r1 = Math.max(box.r1, r);
      for (let y = Math.max(0, r - reach); y <= Math.min(rows - 1, r + reach); y++)
        for (let x = Math.max(0, c - reach); x <= Math.min(cols - 1, c + reach); x++) {
          const next = y * cols + x;
          if (changed[next] && !seen[next]) {
            seen[next] = 1;
            queue.push(next);
          }
        }
    }
    found.push(box);
  }
  return found;
}
