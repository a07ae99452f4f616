import { joinLines, lineSpans } from '../layout/lines.ts';
import { joinTables } from '../layout/table-runs.ts';
import type { Block, Cell, DocLayout, PageLayout, Para, Span, Table } from '../layout/types.ts';

/** A paragraph's text on one line, without its list marker. */
export function paraText(p: Para): string {
  const texts = p.lines.map((l) => (l.hyphen === 'split' ? `${l.text.slice(0, -1)}\u00AD` : l.text));
  if (p.marker && texts.length) texts[0] = stripMarker(texts[0]!, p.marker);
  return joinLines(
    texts,
    p.lines.map((l) => l.hyphen === 'keep'),
  );
}

/**
 * The blocks of each page as a flowing document reads them: running headers and footers left out,
 * and a paragraph or a table a page break cut whole again, on the page where it began.
 */
export function flowBlocks(doc: DocLayout): { page: PageLayout; blocks: Block[] }[] {
  const out: { page: PageLayout; blocks: Block[] }[] = [];
  let last: { blocks: Block[]; at: number } | undefined;
  for (const page of doc.pages) {
    const blocks: Block[] = [];
    for (const b of page.blocks) {
      if (b.kind === 'para' && b.furniture) continue;
      const before = last?.blocks[last.at];
      if (b.kind === 'para' && b.continues && before?.kind === 'para') {
        before.lines.push(...b.lines);
        continue;
      }
      if (b.kind === 'table' && b.continues && before?.kind === 'table') {
        last!.blocks[last!.at] = joinTables(before, b);
        continue;
      }
      blocks.push(b.kind === 'para' ? { ...b, lines: [...b.lines] } : b);
      last = { blocks, at: blocks.length - 1 };
    }
    out.push({ page, blocks });
  }
  return out;
}

export function stripMarker(text: string, marker: string): string {
  const t = text.trimStart();
  return t.startsWith(marker) ? t.slice(marker.length).trimStart() : t;
}

/** A paragraph as styled runs, lines joined by spaces (by '\n' after a typed line break), without its list marker. */
export function paraSpans(p: Para): Span[] {
  const out: Span[] = [];
  p.lines.forEach((line, i) => {
    const spans = lineSpans(line, i === 0 && p.marker ? markerChars(line.text, p.marker) : 0);
    if (!spans.length) return;
    const last = out[out.length - 1];
    const before = p.lines[i - 1];
    if (last) {
      if (before?.brk) last.text += '\n';
      else if (before?.hyphen === 'split') last.text = last.text.replace(/[-\u2010]$/, '');
      else if (last.text.endsWith('\u00AD')) last.text = last.text.slice(0, -1);
      else if (before?.hyphen !== 'keep') last.text += ' ';
    }
    for (const s of spans) {
      const prev = out[out.length - 1];
      if (
        prev &&
        prev.bold === s.bold &&
        prev.italic === s.italic &&
        Math.abs(prev.size - s.size) < 0.6 &&
        prev.family === s.family
      )
        prev.text += s.text;
      else out.push({ ...s });
    }
  });
  for (const s of out) s.text = s.text.replace(/\u00AD/g, '');
  return out.filter((s) => s.text);
}

function markerChars(text: string, marker: string): number {
  return text.trimStart().startsWith(marker) ? marker.length : 0;
}

/** The table as a full grid of strings (covered positions empty), for text outputs. */
export function tableGrid(t: Table): string[][] {
  const grid = Array.from({ length: t.rows }, () => Array.from({ length: t.cols }, () => ''));
  for (const c of t.cells) {
    const row = grid[c.row];
    if (row && c.col < t.cols) row[c.col] = c.text;
  }
  return grid;
}

/** Which cell starts at each grid position, and which positions a span covers. */
export function cellMap(t: Table): { start: Map<string, Cell>; covered: Set<string> } {
  const start = new Map<string, Cell>();
  const covered = new Set<string>();
  for (const c of t.cells) {
    start.set(`${c.row}:${c.col}`, c);
    for (let r = c.row; r < c.row + c.rowSpan; r++)
      for (let k = c.col; k < c.col + c.colSpan; k++) if (r !== c.row || k !== c.col) covered.add(`${r}:${k}`);
  }
  return { start, covered };
}

/** Rows with nothing in them are dropped from outputs. */
export function emptyRows(t: Table): Set<number> {
  const filled = new Set<number>();
  for (const c of t.cells) if (c.text) for (let r = c.row; r < c.row + c.rowSpan; r++) filled.add(r);
  const out = new Set<number>();
  for (let r = 0; r < t.rows; r++) if (!filled.has(r)) out.add(r);
  return out;
}
