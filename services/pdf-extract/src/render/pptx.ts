import { readFile } from 'node:fs/promises';
import * as pptxgen from 'pptxgenjs';
import { lineSpans } from '../layout/lines.ts';
import type { Box, DocLayout, Line, PageLayout } from '../layout/types.ts';

interface TextBox extends Box {
  lines: Line[];
  skip: number;
}

/** The boxes of editable text on a page: one per paragraph, one per table cell. */
function textBoxes(page: PageLayout): TextBox[] {
  const out: TextBox[] = [];
  for (const b of page.blocks) {
    if (b.kind === 'para') out.push({ x0: b.x0, x1: b.x1, top: b.top, bottom: b.bottom, lines: b.lines, skip: 0 });
    else if (b.kind === 'table') {
      for (const c of b.cells) {
        if (!c.lines.length) continue;
        const x0 = Math.min(...c.lines.map((l) => l.x0));
        const x1 = Math.max(...c.lines.map((l) => l.x1));
        const top = Math.min(...c.lines.map((l) => l.top));
        const bottom = Math.max(...c.lines.map((l) => l.bottom));
        out.push({ x0, x1, top, bottom, lines: c.lines, skip: 0 });
      }
    }
  }
  return out;
}

type Pptx = pptxgen.default;
type TextProps = pptxgen.default.TextProps;

/**
 * One slide per page at the first page's aspect ratio: the page's graphics (rendered without text) as
 * the background, and its text as editable text boxes at their places and sizes.
 */
export async function writePptx(doc: DocLayout, backgrounds: (string | undefined)[], path: string): Promise<void> {
  // The package's types describe CommonJS; Node loads its ES build, whose default export is the class.
  const Ctor = ((pptxgen as unknown as { default: { default?: unknown } }).default.default ??
    pptxgen.default) as unknown as new () => Pptx;
  const pptx: Pptx = new Ctor();
  const first = doc.pages[0] ?? { width: 612, height: 792 };
  // PowerPoint allows slides from 1 to 56 inches a side.
  const fit = Math.min(1, 56 / (Math.max(first.width, first.height) / 72));
  const slideW = Math.max(1, (first.width / 72) * fit);
  const slideH = Math.max(1, (first.height / 72) * fit);
  pptx.defineLayout({ name: 'PDF', width: slideW, height: slideH });
  pptx.layout = 'PDF';
  pptx.title = 'Converted PDF';
  for (const [i, page] of doc.pages.entries()) {
    const slide = pptx.addSlide();
    const scale = Math.min(slideW / (page.width / 72), slideH / (page.height / 72));
    const offX = (slideW - (page.width / 72) * scale) / 2;
    const offY = (slideH - (page.height / 72) * scale) / 2;
    const bg = backgrounds[i];
    if (bg) {
      const data = `image/png;base64,${(await readFile(bg)).toString('base64')}`;
      if (page.turn) {
        // The background was rendered as the page stands; the slide shows it turned like its text.
        const w = (page.height / 72) * scale;
        const h = (page.width / 72) * scale;
        slide.addImage({ data, x: slideW / 2 - w / 2, y: slideH / 2 - h / 2, w, h, rotate: page.turn });
      } else if (offX < 0.01 && offY < 0.01) slide.background = { data };
      else slide.addImage({ data, x: offX, y: offY, w: (page.width / 72) * scale, h: (page.height / 72) * scale });
    }
    for (const box of textBoxes(page)) {
      const runs: TextProps[] = [];
      box.lines.forEach((line, k) => {
        const spans = lineSpans(line, k === 0 ? box.skip : 0);
        spans.forEach((s, j) => {
          runs.push({
            text: s.text,
            options: {
              bold: s.bold,
              italic: s.italic,
              fontSize: Math.max(1, Math.round(s.size * scale * 2) / 2),
              fontFace: s.family || undefined,
              breakLine: j === spans.length - 1 && k < box.lines.length - 1,
            },
          });
        });
      });
      if (!runs.length) continue;
      const w = ((box.x1 - box.x0) / 72) * scale;
      const h = ((box.bottom - box.top) / 72) * scale;
      slide.addText(runs, {
        x: offX + (box.x0 / 72) * scale,
        y: offY + (box.top / 72) * scale,
        // A little room so a substituted font does not wrap a line the PDF kept whole.
        w: Math.max(0.1, w * 1.08 + 0.05),
        h: Math.max(0.1, h * 1.05),
        margin: 0,
        valign: 'top',
        fit: 'none',
        paraSpaceBefore: 0,
        paraSpaceAfter: 0,
        lineSpacingMultiple:
          box.lines.length > 1 ? Math.max(0.8, Math.min(2, pitch(box.lines) / (box.lines[0]!.size * 1.2))) : undefined,
      });
    }
    if (page.scanned) slide.addNotes(`Page ${page.number} is a scanned image without a text layer (no OCR).`);
  }
  await pptx.writeFile({ fileName: path, compression: true });
}

function pitch(lines: Line[]): number {
  const d: number[] = [];
  for (let i = 1; i < lines.length; i++) d.push(lines[i]!.base - lines[i - 1]!.base);
  return d.length ? d.reduce((a, b) => a + b, 0) / d.length : lines[0]!.size * 1.2;
}
