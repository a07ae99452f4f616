import { readFile } from 'node:fs/promises';
import { parsePgm, renderSpan } from '@quire/pdf';
import type { ToolContext } from '@quire/service-kit';
import type { Margins } from './margins.ts';

/** Low enough to render a long document quickly, fine enough (2 pt a pixel) to trim close. */
const dpi = 36;
/** Lighter greys than this count as white: paper tone and the faint edge of anti-aliasing. */
const white = 245;
/** Room left around what is drawn, in points, beyond a pixel's width. */
const safety = 3;

/**
 * The white margins of each page as a viewer shows it (crop box, turned), in points, found in a
 * low-resolution rendering; undefined for a page with nothing drawn, which is left as it is.
 */
export async function contentMargins(
  ctx: ToolContext,
  path: string,
  pages: number[],
  shown: (page: number) => { width: number; height: number },
): Promise<Map<number, Margins | undefined>> {
  const span = { first: pages[0]!, last: pages.at(-1)!, dpi, cropBox: true };
  const files = await renderSpan(path, span, ctx, ctx.workdir);
  const found = new Map<number, Margins | undefined>();
  for (const page of pages) {
    const file = files.get(page);
    const grey = file ? parsePgm(await readFile(file)) : undefined;
    const box = grey && inkBox(grey.data, grey.width, grey.height);
    if (!grey || !box) {
      found.set(page, undefined);
      continue;
    }
    const { width, height } = shown(page);
    const [sx, sy] = [width / grey.width, height / grey.height];
    // Whole points, rounded down: the box stays on the grid of a page drawn in whole points.
    const room = (px: number, scale: number) => Math.max(0, Math.floor(px * scale - scale - safety));
    found.set(page, {
      left: room(box.left, sx),
      top: room(box.top, sy),
      right: room(grey.width - 1 - box.right, sx),
      bottom: room(grey.height - 1 - box.bottom, sy),
    });
  }
  return found;
}

/** The first and last rows and columns with a pixel darker than white; undefined when there is none. */
function inkBox(data: Uint8Array, width: number, height: number) {
  let [left, top, right, bottom] = [width, height, -1, -1];
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++)
      if (data[y * width + x]! < white) {
        if (x < left) left = x;
        if (x > right) right = x;
        if (y < top) top = y;
        bottom = y;
      }
  return right < 0 ? undefined : { left, top, right, bottom };
}
