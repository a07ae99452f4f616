import type { PdfPage } from '../pdfjs.ts';
import { ops, type GraphicsState } from './graphics.ts';
import { PageImages, type ImageOptions, type PlacedImage } from './images.ts';
import { mul, type Matrix } from './matrix.ts';
import { Shapes, type Point, type Rule } from './shapes.ts';
import type { Box } from './types.ts';

type OperatorList = Awaited<ReturnType<PdfPage['getOperatorList']>>;

/** What a page draws besides its text, in page space. */
export interface Drawing {
  rules: Rule[];
  /** Filled boxes (shading, cell backgrounds) that are not thin enough to be rules. */
  boxes: Box[];
  images: PlacedImage[];
  /** Images painted on the page, including those not kept. */
  imageCount: number;
  /** Where diagonal lines and curves were drawn (a chart's plot), a point each. */
  strokes: Point[];
  /** Where every image was painted, kept or not. */
  imageBoxes: Box[];
}

/** The page's size and its transform from PDF space to page space. */
interface View {
  transform: Matrix;
  width: number;
  height: number;
}

/**
 * The ruling lines, boxes, chart strokes and images of a page, from its operator list: the graphics
 * state is followed through saves, transforms and form XObjects so each lands where it shows.
 */
export async function readDrawing(page: PdfPage, list: OperatorList, view: View, opts: ImageOptions): Promise<Drawing> {
  const shapes = new Shapes(view.width * view.height);
  const images = new PageImages(page, opts, view.width, view.height);
  let g: GraphicsState = { ctm: [...view.transform], lineWidth: 1, fill: '#000000', stroke: '#000000' };
  const saved: GraphicsState[] = [];
  const { fnArray, argsArray } = list;
  for (let i = 0; i < fnArray.length; i++) {
    const args = argsArray[i] as unknown[] | null;
    switch (fnArray[i]) {
      case ops.save:
        saved.push({ ...g });
        break;
      case ops.restore:
        g = saved.pop() ?? g;
        break;
      case ops.transform:
        g.ctm = mul(g.ctm, args as unknown as Matrix);
        break;
      case ops.paintFormXObjectBegin: {
        saved.push({ ...g });
        const m = args?.[0] as Matrix | null | undefined;
        if (m && m.length === 6) g.ctm = mul(g.ctm, m);
        break;
      }
      case ops.paintFormXObjectEnd:
        g = saved.pop() ?? g;
        break;
      case ops.setLineWidth:
        g.lineWidth = Number(args?.[0]) || 0;
        break;
      case ops.setFillRGBColor:
        g.fill = String(args?.[0] ?? '#000000');
        break;
      case ops.setStrokeRGBColor:
        g.stroke = String(args?.[0] ?? '#000000');
        break;
      case ops.constructPath: {
        const data = (args?.[1] as unknown[] | undefined)?.[0] as ArrayLike<number> | undefined;
        shapes.paint(Number(args?.[0]), data, g);
        break;
      }
      case ops.paintImageXObject:
        images.paintObject(String(args?.[0]), g.ctm);
        break;
      case ops.paintInlineImageXObject:
        images.paintInline(args?.[0], g.ctm);
        break;
      case ops.paintImageMaskXObject:
      case ops.paintImageXObjectRepeat:
        images.paintUnkept();
        break;
    }
  }
  return {
    rules: shapes.rules,
    boxes: shapes.boxes,
    images: await images.done(),
    imageCount: images.count,
    strokes: shapes.strokes,
    imageBoxes: images.boxes,
  };
}
