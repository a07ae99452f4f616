import { readFile, writeFile } from 'node:fs/promises';
import {
  AlignmentType,
  Document,
  HeadingLevel,
  ImageRun,
  LevelFormat,
  Packer,
  PageOrientation,
  Paragraph,
  Table as DocxTable,
  TableCell,
  TableRow,
  TextRun,
  WidthType,
  type ISectionOptions,
} from 'docx';
import { lineSpans } from '../layout/lines.ts';
import type { Block, DocLayout, PageLayout, Span, Table } from '../layout/types.ts';
import { cellMap, emptyRows, flowBlocks, paraSpans } from './common.ts';

const twip = (pt: number) => Math.round(pt * 20);
const px = (pt: number) => Math.max(1, Math.round((pt * 96) / 72));

function runs(spans: Span[], body: number): TextRun[] {
  return spans.map(
    (s) =>
      new TextRun({
        text: s.text,
        bold: s.bold || undefined,
        italics: s.italic || undefined,
        size: Math.abs(s.size - body) < 0.3 ? undefined : Math.max(2, Math.round(s.size * 2)),
        font: s.family || undefined,
      }),
  );
}

/** Word's own styles for headings outside the outline (see Para.titling); Title is built in. */
const titlingStyles = { subtitle: 'Subtitle', contents: 'TOCHeading' } as const;
const paragraphStyles = [
  { id: titlingStyles.subtitle, name: 'Subtitle', basedOn: 'Normal', next: 'Normal', quickFormat: true },
  { id: titlingStyles.contents, name: 'TOC Heading', basedOn: 'Heading1', next: 'Normal', quickFormat: true },
];

const headingLevels = [
  HeadingLevel.HEADING_1,
  HeadingLevel.HEADING_2,
  HeadingLevel.HEADING_3,
  HeadingLevel.HEADING_4,
  HeadingLevel.HEADING_5,
  HeadingLevel.HEADING_6,
] as const;

function table(t: Table, body: number): DocxTable {
  const { start, covered } = cellMap(t);
  const skip = emptyRows(t);
  const rows: TableRow[] = [];
  const widths = t.colX.slice(1).map((x, i) => Math.max(200, twip(x - t.colX[i]!)));
  for (let r = 0; r < t.rows; r++) {
    if (skip.has(r)) continue;
    const cells: TableCell[] = [];
    for (let c = 0; c < t.cols; c++) {
      if (covered.has(`${r}:${c}`)) continue;
      const cell = start.get(`${r}:${c}`);
      const spans = cell
        ? cell.lines
            .flatMap((l, i) => (i ? [{ ...lineSpans(l)[0]!, text: ' ' }, ...lineSpans(l)] : lineSpans(l)))
            .filter((s) => s && s.text)
        : [];
      const rowSpan = cell ? cell.rowSpan - [...skip].filter((x) => x > r && x < r + cell.rowSpan).length : 1;
      cells.push(
        new TableCell({
          children: [new Paragraph({ children: runs(spans, body) })],
          columnSpan: cell && cell.colSpan > 1 ? cell.colSpan : undefined,
          rowSpan: rowSpan > 1 ? rowSpan : undefined,
          width: { size: widths.slice(c, c + (cell?.colSpan ?? 1)).reduce((a, b) => a + b, 0), type: WidthType.DXA },
        }),
      );
    }
    rows.push(new TableRow({ children: cells }));
  }
  return new DocxTable({
    rows,
    columnWidths: widths,
    width: { size: widths.reduce((a, b) => a + b, 0), type: WidthType.DXA },
  });
}

async function blockItems(
  b: Block,
  body: number,
  maxWidthPt: number,
  listInstance: () => number,
  breakBefore: boolean,
): Promise<(Paragraph | DocxTable)[]> {
  const pageBreakBefore = breakBefore || undefined;
  if (b.kind === 'table')
    return [...(breakBefore ? [new Paragraph({ pageBreakBefore })] : []), table(b, body), new Paragraph({})];
  if (b.kind === 'image') {
    let w = b.x1 - b.x0;
    let h = b.bottom - b.top;
    if (w > maxWidthPt) {
      h = (h * maxWidthPt) / w;
      w = maxWidthPt;
    }
    const data = await readFile(b.file);
    return [
      new Paragraph({
        pageBreakBefore,
        children: [new ImageRun({ type: 'png', data, transformation: { width: px(w), height: px(h) } })],
      }),
    ];
  }
  const children = runs(paraSpans(b), body);
  if (b.role === 'heading' && b.titling) {
    const titled = b.titling === 'title' ? { heading: HeadingLevel.TITLE } : { style: titlingStyles[b.titling] };
    return [new Paragraph({ pageBreakBefore, ...titled, children })];
  }
  if (b.role === 'heading')
    return [
      new Paragraph({ pageBreakBefore, heading: headingLevels[b.level - 1] ?? HeadingLevel.HEADING_6, children }),
    ];
  if (b.role === 'list') {
    return [
      new Paragraph({
        pageBreakBefore,
        children,
        numbering: {
          reference: b.ordered ? 'numbers' : 'bullets',
          level: b.level,
          instance: b.ordered ? listInstance() : 0,
        },
      }),
    ];
  }
  return [new Paragraph({ pageBreakBefore, children })];
}

function margins(page: PageLayout) {
  const boxes = page.blocks.filter((b) => b.kind !== 'image' || !b.background);
  const left = boxes.length ? Math.min(...boxes.map((b) => b.x0)) : 72;
  const right = boxes.length ? page.width - Math.max(...boxes.map((b) => b.x1)) : 72;
  const top = boxes.length ? Math.min(...boxes.map((b) => b.top)) : 72;
  const bottom = boxes.length ? page.height - Math.max(...boxes.map((b) => b.bottom)) : 72;
  const clamp = (v: number) => Math.max(28, Math.min(108, Number.isFinite(v) ? v : 72));
  return { left: clamp(left), right: clamp(right), top: clamp(top), bottom: clamp(bottom) };
}

/**
 * A Word document a person can edit: flowing paragraphs, Heading 1–3, bold and italic runs, real
 * lists and tables, images in place, and a page break where each PDF page began.
 */
export async function writeDocx(doc: DocLayout, path: string): Promise<void> {
  const sections: ISectionOptions[] = [];
  const body = doc.bodySize || 11;
  let instance = 0;
  let lastOrdered: unknown;
  let current: { key: string; children: (Paragraph | DocxTable)[]; page: PageLayout } | undefined;
  const flush = () => {
    if (!current) return;
    const m = margins(current.page);
    const landscape = current.page.width > current.page.height;
    sections.push({
      properties: {
        page: {
          size: {
            width: twip(current.page.width),
            height: twip(current.page.height),
            orientation: landscape ? PageOrientation.LANDSCAPE : PageOrientation.PORTRAIT,
          },
          margin: { left: twip(m.left), right: twip(m.right), top: twip(m.top), bottom: twip(m.bottom) },
        },
      },
      children: current.children.length ? current.children : [new Paragraph({})],
    });
    current = undefined;
  };
  for (const { page, blocks } of flowBlocks(doc)) {
    const key = `${Math.round(page.width)}x${Math.round(page.height)}`;
    const m = margins(page);
    const maxWidth = page.width - m.left - m.right;
    if (current && current.key !== key) flush();
    const breakFirst = current !== undefined;
    const children: (Paragraph | DocxTable)[] = [];
    for (const b of blocks) {
      const ordered = b.kind === 'para' && b.role === 'list' && b.ordered;
      const items = await blockItems(
        b,
        body,
        maxWidth,
        () => {
          if (lastOrdered !== 'open') instance++;
          return instance;
        },
        breakFirst && children.length === 0,
      );
      lastOrdered = ordered ? 'open' : b.kind === 'para' && b.role === 'list' ? lastOrdered : undefined;
      children.push(...items);
    }
    if (!children.length) children.push(new Paragraph({ pageBreakBefore: breakFirst || undefined }));
    if (current) current.children.push(...children);
    else current = { key, children, page };
  }
  flush();
  const bulletLevels = [0, 1, 2].map((level) => ({
    level,
    format: LevelFormat.BULLET,
    text: ['•', '◦', '▪'][level]!,
    alignment: AlignmentType.LEFT,
    style: { paragraph: { indent: { left: 720 * (level + 1), hanging: 360 } } },
  }));
  const numberLevels = [0, 1, 2].map((level) => ({
    level,
    format: [LevelFormat.DECIMAL, LevelFormat.LOWER_LETTER, LevelFormat.LOWER_ROMAN][level]!,
    text: `%${level + 1}.`,
    alignment: AlignmentType.LEFT,
    style: { paragraph: { indent: { left: 720 * (level + 1), hanging: 360 } } },
  }));
  const document = new Document({
    creator: 'Quire',
    styles: { default: { document: { run: { size: Math.round(body * 2) } } }, paragraphStyles },
    numbering: {
      config: [
        { reference: 'bullets', levels: bulletLevels },
        { reference: 'numbers', levels: numberLevels },
      ],
    },
    sections: sections.length ? sections : [{ children: [new Paragraph({})] }],
  });
  await writeFile(path, await Packer.toBuffer(document));
}
