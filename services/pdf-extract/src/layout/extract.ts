import type { PdfPage } from '../pdfjs.ts';
import { readDrawing, type Drawing } from './drawing.ts';
import { formFieldFrags } from './form-fields.ts';
import type { ImageOptions } from './images.ts';
import type { Matrix } from './matrix.ts';
import { textFrags, textTurn } from './text.ts';
import type { Frag } from './types.ts';

export interface RawPage extends Drawing {
  width: number;
  height: number;
  frags: Frag[];
  /** Degrees the page was turned (clockwise) beyond its /Rotate to set its text upright. */
  turn: number;
}

/** Text, ruling lines and images of one page, in page space (points, y down, /Rotate applied). */
export async function extractPage(page: PdfPage, opts: ImageOptions): Promise<RawPage> {
  // The operator list first: it loads the page's fonts, whose names the text needs.
  const list = await page.getOperatorList();
  const content = await page.getTextContent();
  const turn = textTurn(page, content);
  const viewport = page.getViewport({ scale: 1, rotation: (page.rotate + turn) % 360 });
  const transform = viewport.transform as Matrix;
  const { width, height } = viewport;
  const frags = textFrags(page, content, transform);
  frags.push(...(await formFieldFrags(page, transform)));
  const { rules, boxes, images, imageCount, strokes, imageBoxes } = await readDrawing(
    page,
    list,
    { transform, width, height },
    opts,
  );
  return { width, height, frags, rules, boxes, images, imageCount, strokes, imageBoxes, turn };
}
