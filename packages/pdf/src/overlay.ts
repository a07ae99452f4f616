import {
  degrees,
  endMarkedContent,
  PDFHexString,
  PDFName,
  PDFOperator,
  PDFOperatorNames,
  PDFDocument,
  rgb,
  StandardFonts,
  PDFArray,
  PDFEmbeddedPage,
  type PDFObject,
  type PDFFont,
  type PDFImage,
  type PDFPage,
  type RGB,
} from '@cantoo/pdf-lib';

/*
 * Text, images and pages drawn over (or under) a PDF's pages with pdf-lib, which weighs some 40 MB
 * once loaded: import this module only when a call needs it.
 */

type OperatorArg = NonNullable<Parameters<typeof PDFOperator.of>[1]>[number];

/** Share of the visible page's width and height a fitted text's box may cover, turned as it is drawn. */
const span = 0.8;
/** Nor may fitted letters be taller than this share of the visible page's shorter side. */
const maxHeight = 0.25;

export interface TextMark {
  text: string;
  font: PDFFont;
  opacity: number;
  /** Along the page's diagonal as shown, else level, unless `angle` says otherwise. */
  diagonal: boolean;
  /** Degrees counter-clockwise as shown. */
  angle?: number;
  /** Points; fitted to the page when not given. */
  size?: number;
  /** Share of the visible page's width and height a fitted text's box may cover. */
  span?: number;
  color?: RGB;
}

/** The characters a standard font can draw (WinAnsi: Latin-1 and a few more), learnt once each. */
const drawable = new Map<StandardFonts, Promise<Set<number>>>();
export function drawableCharacters(font: StandardFonts = StandardFonts.Helvetica): Promise<Set<number>> {
  if (!drawable.has(font))
    drawable.set(
      font,
      PDFDocument.create()
        .then((doc) => doc.embedFont(font))
        .then((embedded) => new Set(embedded.getCharacterSet())),
    );
  return drawable.get(font)!;
}

/**
 * Text across the middle of a page, sized to its visible part (unless `size` is given) and upright
 * as the page is shown, marked with its ActualText so that extractors read it as one phrase.
 */
export function drawTextMark(page: PDFPage, mark: TextMark): void {
  const { font, text } = mark;
  const box = visibleBox(page);
  const rotation = ((page.getRotation().angle % 360) + 360) % 360;
  // As shown, a page turned a quarter has its sides swapped.
  const sideways = rotation === 90 || rotation === 270;
  const shownWidth = sideways ? box.height : box.width;
  const shownHeight = sideways ? box.width : box.height;
  // The angle the text makes as shown (counter-clockwise), then in the page's own space, which the
  // viewer turns clockwise by /Rotate.
  const shownAngle = mark.angle ?? (mark.diagonal ? (Math.atan2(shownHeight, shownWidth) * 180) / Math.PI : 0);
  const angle = shownAngle + rotation;

  // The largest size at which the text's box, turned by the shown angle, fits the page with its margin:
  // its extent grows linearly with the size, across (width·cos + height·sin) and up (width·sin + height·cos).
  const [across, up] = [
    Math.abs(Math.cos((shownAngle * Math.PI) / 180)),
    Math.abs(Math.sin((shownAngle * Math.PI) / 180)),
  ];
  const unitWidth = font.widthOfTextAtSize(text, 1);
  const unitHeight = font.heightAtSize(1);
  // No floor of its own: on a stamp-sized page the text is as small as the page, not clipped by it.
  const size =
    mark.size ??
    Math.min(
      ((mark.span ?? span) * shownWidth) / (unitWidth * across + unitHeight * up),
      ((mark.span ?? span) * shownHeight) / (unitWidth * up + unitHeight * across),
      maxHeight * Math.min(shownWidth, shownHeight),
    );
  const width = font.widthOfTextAtSize(text, size);
  const height = font.heightAtSize(size, { descender: false });

  // pdf-lib turns text about its start on the baseline: start there so the text's middle is the box's.
  const rad = (angle * Math.PI) / 180;
  const [cos, sin] = [Math.cos(rad), Math.sin(rad)];
  const cx = box.x + box.width / 2;
  const cy = box.y + box.height / 2;
  // Text extractors split slanted text into letters; marked with its ActualText, it reads as one word.
  page.pushOperators(
    PDFOperator.of(PDFOperatorNames.BeginMarkedContentSequence, [
      PDFName.of('Span'),
      // An inline property list: the operator writes any PDF object, though its type lists fewer.
      page.doc.context.obj({ ActualText: PDFHexString.fromText(text) }) as unknown as OperatorArg,
    ]),
  );
  page.drawText(text, {
    x: cx - (cos * width) / 2 + (sin * height) / 2,
    y: cy - (sin * width) / 2 - (cos * height) / 2,
    size,
    font,
    color: mark.color ?? rgb(0.5, 0.5, 0.5),
    opacity: mark.opacity,
    rotate: degrees(angle),
  });
  page.pushOperators(endMarkedContent());
}

/**
 * An image or another PDF's page in the middle of a page, `scale` of the visible page's width (or
 * height, if that binds first), upright as shown and turned `angle` degrees counter-clockwise.
 */
export function drawPictureMark(
  page: PDFPage,
  picture: PDFImage | PDFEmbeddedPage,
  mark: { scale: number; opacity: number; angle: number },
): void {
  const box = visibleBox(page);
  const rotation = ((page.getRotation().angle % 360) + 360) % 360;
  const sideways = rotation === 90 || rotation === 270;
  const [shownWidth, shownHeight] = sideways ? [box.height, box.width] : [box.width, box.height];
  const fit = Math.min((mark.scale * shownWidth) / picture.width, (mark.scale * shownHeight) / picture.height);
  const [width, height] = [picture.width * fit, picture.height * fit];
  const rad = ((mark.angle + rotation) * Math.PI) / 180;
  const [cos, sin] = [Math.cos(rad), Math.sin(rad)];
  // Drawn from its lower left corner, turned about it: start where the turned middle is the page's.
  const x = box.x + box.width / 2 - (cos * width - sin * height) / 2;
  const y = box.y + box.height / 2 - (sin * width + cos * height) / 2;
  const options = { x, y, width, height, opacity: mark.opacity, rotate: degrees(mark.angle + rotation) };
  if (picture instanceof PDFEmbeddedPage) page.drawPage(picture, options);
  else page.drawImage(picture, options);
}

/**
 * Runs `draw` on a page pdf-lib has not drawn on yet so that what it draws lies under the page's own
 * content (a watermark rather than a stamp): the content stream pdf-lib adds, last, is moved to the
 * front. pdf-lib brackets each drawing with q/Q, so none of its state reaches the content after it.
 */
export function underneath(page: PDFPage, draw: () => void): void {
  draw();
  const refs = contentRefs(page);
  if (refs.length < 2) return;
  page.node.set(PDFName.of('Contents'), page.doc.context.obj([refs.at(-1)!, ...refs.slice(0, -1)]));
}

function contentRefs(page: PDFPage): PDFObject[] {
  const contents = page.node.get(PDFName.of('Contents'));
  const resolved = contents && page.doc.context.lookup(contents);
  return resolved instanceof PDFArray ? resolved.asArray() : contents ? [contents] : [];
}

/** The crop box (what a viewer shows), falling back to the media box, then to Letter, when unreadable. */
export function visibleBox(page: PDFPage): ReturnType<PDFPage['getCropBox']> {
  for (const box of [() => page.getCropBox(), () => page.getMediaBox()]) {
    try {
      const b = box();
      if (b.width > 0 && b.height > 0 && [b.x, b.y, b.width, b.height].every(Number.isFinite)) return b;
    } catch {
      /* not a rectangle: try the next */
    }
  }
  return { x: 0, y: 0, width: 612, height: 792 };
}
