import {
  degrees,
  endMarkedContent,
  grayscale,
  PDFHexString,
  PDFName,
  PDFOperator,
  PDFDocument,
  PDFOperatorNames,
  StandardFonts,
  type PDFFont,
  type PDFPage,
} from '@cantoo/pdf-lib';
import type { ToolOptions } from '@quire/catalog';
import { fail, ToolError } from '@quire/base';
import type { ToolContext, ToolResult } from '@quire/service-kit';
import { loadPdf, savePdf } from '../../pdf-lib.ts';
import { openRepaired, workPath } from '../../pdf.ts';

type OperatorArg = NonNullable<Parameters<typeof PDFOperator.of>[1]>[number];

/** Share of the visible page's width and height the text's box may cover, turned as it is drawn. */
const span = 0.8;
/** Nor may the letters be taller than this share of the visible page's shorter side. */
const maxHeight = 0.25;

/** The characters the standard Helvetica can draw (WinAnsi: Latin-1 and a few more), learnt once. */
let drawable: Promise<Set<number>> | undefined;
function drawableCharacters(): Promise<Set<number>> {
  drawable ??= PDFDocument.create()
    .then((doc) => doc.embedFont(StandardFonts.Helvetica))
    .then((font) => new Set(font.getCharacterSet()));
  return drawable;
}

/**
 * Stamps the text across every page in Helvetica (a standard font, so nothing is embedded and the
 * text stays extractable), sized to the visible part of each page and upright as the page is shown.
 */
export async function watermark(ctx: ToolContext<ToolOptions<'add-watermark'>>): Promise<ToolResult> {
  const text = ctx.options.text.replace(/\s+/g, ' ');
  const { opacity } = ctx.options;
  const diagonal = ctx.options.position === 'diagonal';
  const canDraw = await drawableCharacters();
  const bad = [...text].find((ch) => !canDraw.has(ch.codePointAt(0)!));
  if (bad !== undefined) {
    fail(
      'invalid_option',
      `The option "text" has a character that cannot be drawn ("${bad}"); please use Latin letters, digits and common punctuation.`,
    );
  }
  const { path: source } = await openRepaired(ctx, ctx.inputs[0]!);
  const doc = await loadPdf(source);
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const pages = doc.getPages();
  try {
    for (const page of pages) stamp(page, font, text, opacity, diagonal);
  } catch (err) {
    // A page qpdf kept but pdf-lib cannot draw on (contents neither a stream nor an array of them).
    throw new ToolError('damaged_input', undefined, { cause: err });
  }
  const out = workPath(ctx, 'watermarked.pdf');
  await savePdf(doc, out);
  return { path: out, properties: { pages: pages.length } };
}

function stamp(page: PDFPage, font: PDFFont, text: string, opacity: number, diagonal: boolean): void {
  const box = visibleBox(page);
  const rotation = ((page.getRotation().angle % 360) + 360) % 360;
  // As shown, a page turned a quarter has its sides swapped.
  const sideways = rotation === 90 || rotation === 270;
  const shownWidth = sideways ? box.height : box.width;
  const shownHeight = sideways ? box.width : box.height;
  // The angle the text makes as shown (counter-clockwise), then in the page's own space, which the
  // viewer turns clockwise by /Rotate.
  const shownAngle = diagonal ? (Math.atan2(shownHeight, shownWidth) * 180) / Math.PI : 0;
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
  const size = Math.min(
    (span * shownWidth) / (unitWidth * across + unitHeight * up),
    (span * shownHeight) / (unitWidth * up + unitHeight * across),
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
    color: grayscale(0.5),
    opacity,
    rotate: degrees(angle),
  });
  page.pushOperators(endMarkedContent());
}

/** The crop box (what a viewer shows), falling back to the media box, then to Letter, when unreadable. */
function visibleBox(page: PDFPage): ReturnType<PDFPage['getCropBox']> {
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
