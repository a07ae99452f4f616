import { PDFDocument, rgb, StandardFonts, type PDFEmbeddedPage, type PDFPage, type RGB } from '@cantoo/pdf-lib';
import type { Mark } from './diff.ts';
import type { PageSize, PlacedWord } from './words.ts';

const colours: Record<Mark, RGB> = {
  removed: rgb(0.86, 0.15, 0.15),
  added: rgb(0.1, 0.62, 0.25),
  changed: rgb(0.95, 0.6, 0.05),
};
const margin = 24;
const header = 36;

/** A box to highlight on a page, in points from the page's top left. */
export interface Highlight {
  box: { x0: number; y0: number; x1: number; y1: number };
  mark: Mark;
}

export interface Side {
  doc: PDFDocument;
  pages: PageSize[];
  /** By page index. */
  highlights: Highlight[][];
}

/**
 * The report: for each page number, the first document's page on the left and the second's on the
 * right, as they look, with what differs highlighted (red removed, green added, orange changed) and a
 * line saying what changed on them (`summary`, by page index).
 */
export async function drawReport(
  first: Side,
  second: Side,
  name: [string, string],
  summary: (page: number) => string,
): Promise<PDFDocument> {
  const out = await PDFDocument.create();
  const font = await out.embedFont(StandardFonts.Helvetica);
  const [a, b] = await Promise.all([embedAll(out, first.doc), embedAll(out, second.doc)]);
  const count = Math.max(first.pages.length, second.pages.length);
  for (let p = 0; p < count; p++) {
    const sizeA = first.pages[p] ?? { width: 0, height: 0 };
    const sizeB = second.pages[p] ?? { width: 0, height: 0 };
    const width = margin * 3 + Math.max(sizeA.width, 200) + Math.max(sizeB.width, 200);
    const height = header + margin * 2 + Math.max(sizeA.height, sizeB.height);
    const page = out.addPage([width, height]);
    const top = height - header - margin;
    const leftX = margin;
    const rightX = margin * 2 + Math.max(sizeA.width, 200);
    page.drawText(`Page ${p + 1}: ${summary(p)}`, { x: margin, y: height - margin - 10, size: 12, font });
    page.drawText(ascii(name[0]), { x: leftX, y: top + 6, size: 8, font, color: rgb(0.35, 0.35, 0.35) });
    page.drawText(ascii(name[1]), { x: rightX, y: top + 6, size: 8, font, color: rgb(0.35, 0.35, 0.35) });
    place(page, a[p], sizeA, leftX, top, first.highlights[p] ?? []);
    place(page, b[p], sizeB, rightX, top, second.highlights[p] ?? []);
  }
  return out;
}

/** The words that differ as highlights, by page index. */
export function wordHighlights(words: PlacedWord[], marks: Map<number, Mark>, pages: number): Highlight[][] {
  const byPage = Array.from({ length: pages }, () => [] as Highlight[]);
  marks.forEach((mark, index) => {
    const word = words[index]!;
    byPage[word.page - 1]?.push({ box: word.box, mark });
  });
  return byPage;
}

/**
 * Every page of a document as a form on the report, cut to what a reader shows (its crop box): `blank`
 * for a page with no content, `unreadable` for one whose content does not decode.
 */
async function embedAll(out: PDFDocument, doc: PDFDocument): Promise<Drawn[]> {
  const drawn: Drawn[] = [];
  for (const page of doc.getPages()) {
    if (!page.node.Contents()) {
      drawn.push('blank');
      continue;
    }
    const { x, y, width, height } = page.getCropBox();
    drawn.push(
      await out
        .embedPage(page, { left: x, bottom: y, right: x + width, top: y + height })
        .catch(() => 'unreadable' as const),
    );
  }
  return drawn;
}

type Drawn = PDFEmbeddedPage | 'blank' | 'unreadable';

function place(
  page: PDFPage,
  embedded: Drawn | undefined,
  size: PageSize,
  x: number,
  top: number,
  highlights: Highlight[],
): void {
  if (!embedded) {
    page.drawText('(no such page)', { x, y: top - 20, size: 10 });
    return;
  }
  const frame = { x, y: top - size.height, width: size.width, height: size.height };
  page.drawRectangle({ ...frame, borderColor: rgb(0.7, 0.7, 0.7), borderWidth: 0.5 });
  if (embedded === 'unreadable') page.drawText('(this page could not be drawn)', { x: x + 10, y: top - 20, size: 10 });
  else if (embedded !== 'blank') page.drawPage(embedded, frame);
  for (const { box, mark } of highlights) {
    const { x0, y0, x1, y1 } = box;
    page.drawRectangle({
      x: x + x0 - 1,
      y: top - y1 - 1,
      width: x1 - x0 + 2,
      height: y1 - y0 + 2,
      color: colours[mark],
      opacity: 0.3,
      borderColor: colours[mark],
      borderWidth: 0.75,
      borderOpacity: 0.9,
    });
  }
}

/** The standard font draws Latin-1 only: a file name's other characters are shown as "?". */
const ascii = (s: string) => s.replace(/[^\x20-\x7e\xa0-\xff]/g, '?').slice(0, 120);

/** Which page numbers of the report show a change. */
export function pagesChanged(first: Side, second: Side): number[] {
  const count = Math.max(first.pages.length, second.pages.length);
  const changed = (p: number) => Boolean(first.highlights[p]?.length || second.highlights[p]?.length);
  return Array.from({ length: count }, (_, p) => p + 1).filter((n) => changed(n - 1));
}
