import { randomUUID } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
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
import { bodyIds, documentXml, SectionBody, writePackage } from './docx-package.ts';
import { bodyWriter } from './docx-xml.ts';

const twip = (pt: number) => Math.round(pt * 20);
const px = (pt: number) => Math.max(1, Math.round((pt * 96) / 72));

function runs(spans: Span[], body: number): TextRun[] {
  // A typed line break ('\n', see paraSpans) is Word's own: a break before the text after it.
  return spans.flatMap((s) =>
    s.text.split('\n').map(
      (text, i) =>
        new TextRun({
          text,
          break: i > 0 ? 1 : undefined,
          bold: s.bold || undefined,
          italics: s.italic || undefined,
          size: Math.abs(s.size - body) < 0.3 ? undefined : Math.max(2, Math.round(s.size * 2)),
          font: s.family || undefined,
        }),
    ),
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

/** A run of pages of one size: a section of the Word document, with that size and its first page's margins. */
interface Section {
  page: PageLayout;
  /** The index in the flow of its first page, and the one after its last. */
  from: number;
  to: number;
}

function sectionsOf(flow: { page: PageLayout }[]): Section[] {
  const out: Section[] = [];
  const key = (p: PageLayout) => `${Math.round(p.width)}x${Math.round(p.height)}`;
  flow.forEach(({ page }, i) => {
    const last = out[out.length - 1];
    if (last && key(last.page) === key(page)) last.to = i + 1;
    else out.push({ page, from: i, to: i + 1 });
  });
  return out;
}

function sectionOptions({ page }: Section, marker: string): ISectionOptions {
  const m = margins(page);
  return {
    properties: {
      page: {
        size: {
          width: twip(page.width),
          height: twip(page.height),
          orientation: page.width > page.height ? PageOrientation.LANDSCAPE : PageOrientation.PORTRAIT,
        },
        margin: { left: twip(m.left), right: twip(m.right), top: twip(m.top), bottom: twip(m.bottom) },
      },
    },
    // Stands for the section's body, written apart (see writeDocx).
    children: [new Paragraph({ text: marker })],
  };
}

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

/**
 * A Word document a person can edit: flowing paragraphs, Heading 1–3, bold and italic runs, real
 * lists and tables, images in place, and a page break where each PDF page began.
 *
 * docx lays out the package (styles, lists, sections, media) around a marker paragraph per section;
 * the body is written page by page as XML text to a file and streamed into its place (see
 * docx-package.ts), so a long document never stands in memory whole, as docx's objects or as text.
 */
export async function writeDocx(doc: DocLayout, path: string): Promise<void> {
  const body = doc.bodySize || 11;
  const flow = flowBlocks(doc);
  const sections = sectionsOf(flow);
  const markers = sections.map((_, i) => `quire-section-body-${i}-${randomUUID()}`);
  const document = new Document({
    creator: 'Quire',
    styles: { default: { document: { run: { size: Math.round(body * 2) } } }, paragraphStyles },
    numbering: {
      config: [
        { reference: 'bullets', levels: bulletLevels },
        { reference: 'numbers', levels: numberLevels },
      ],
    },
    sections: sections.length
      ? sections.map((s, i) => sectionOptions(s, markers[i]!))
      : [{ children: [new Paragraph({ text: (markers[0] = 'quire-empty-document') })] }],
  });
  const write = bodyWriter(document);
  const dir = await mkdtemp(join(dirname(path), 'docx-body-'));
  const bodies: SectionBody[] = [];
  try {
    let instance = 0;
    let lastOrdered: unknown;
    for (const section of sections) {
      const part = new SectionBody(join(dir, `section-${bodies.length}`));
      bodies.push(part);
      const m = margins(section.page);
      const maxWidth = section.page.width - m.left - m.right;
      for (let i = section.from; i < section.to; i++) {
        const breakFirst = i > section.from;
        let empty = true;
        for (const b of flow[i]!.blocks) {
          const ordered = b.kind === 'para' && b.role === 'list' && b.ordered;
          const next = () => {
            if (lastOrdered !== 'open') instance++;
            return instance;
          };
          for (const item of await blockItems(b, body, maxWidth, next, breakFirst && empty))
            await part.add(write(item));
          empty = false;
          lastOrdered = ordered ? 'open' : b.kind === 'para' && b.role === 'list' ? lastOrdered : undefined;
        }
        if (empty) await part.add(write(new Paragraph({ pageBreakBefore: breakFirst || undefined })));
      }
      await part.close();
    }
    const ids = bodyIds(document);
    const view = write(document.Document.View);
    const packed = await Packer.toBuffer(document, undefined, [{ path: documentPart, data: '' }]);
    await writePackage(packed, path, documentPart, documentXml(view, markers, bodies, ids));
  } finally {
    await Promise.all(bodies.map((b) => b.close().catch(() => undefined)));
    await rm(dir, { recursive: true, force: true });
  }
}

const documentPart = 'word/document.xml';
