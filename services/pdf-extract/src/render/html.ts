import { open, readFile } from 'node:fs/promises';
import type { Block, DocLayout, Para, Span, Table } from '../layout/types.ts';
import { cellMap, emptyRows, flowBlocks, paraSpans } from './common.ts';

export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

function inline(spans: Span[]): string {
  return spans
    .map((s) => {
      let t = escapeHtml(s.text).replace(/\n/g, '<br>');
      if (s.italic) t = `<em>${t}</em>`;
      if (s.bold) t = `<strong>${t}</strong>`;
      return t;
    })
    .join('');
}

function table(t: Table): string {
  const { start, covered } = cellMap(t);
  const skip = emptyRows(t);
  const rows: string[] = [];
  for (let r = 0; r < t.rows; r++) {
    if (skip.has(r)) continue;
    const cells: string[] = [];
    for (let c = 0; c < t.cols; c++) {
      if (covered.has(`${r}:${c}`)) continue;
      const cell = start.get(`${r}:${c}`);
      const tag = r === 0 && t.rows > 1 ? 'th' : 'td';
      const span = `${cell && cell.colSpan > 1 ? ` colspan="${cell.colSpan}"` : ''}${cell && cell.rowSpan > 1 ? ` rowspan="${cell.rowSpan - [...skip].filter((x) => x > r && x < r + cell.rowSpan).length}"` : ''}`;
      cells.push(`<${tag}${span}>${cell ? cell.lines.map((l) => escapeHtml(l.text)).join('<br>') : ''}</${tag}>`);
    }
    rows.push(`<tr>${cells.join('')}</tr>`);
  }
  return `<table>\n${rows.join('\n')}\n</table>`;
}

async function blocksHtml(blocks: Block[]): Promise<string> {
  const out: string[] = [];
  let list: { ordered: boolean; level: number }[] = [];
  const closeLists = (level: number) => {
    while (list.length > level) out.push(list.pop()!.ordered ? '</ol>' : '</ul>');
  };
  for (const b of blocks) {
    if (b.kind === 'para' && b.role === 'list') {
      const want = b.level + 1;
      closeLists(want);
      if (list.length === want && list[want - 1]!.ordered !== b.ordered) closeLists(want - 1);
      while (list.length < want) {
        list.push({ ordered: b.ordered, level: list.length });
        out.push(b.ordered ? '<ol>' : '<ul>');
      }
      out.push(`<li>${inline(paraSpans(b))}</li>`);
      continue;
    }
    closeLists(0);
    list = [];
    if (b.kind === 'para') out.push(para(b));
    else if (b.kind === 'table') out.push(table(b));
    else {
      const data = (await readFile(b.file)).toString('base64');
      const w = Math.round(b.x1 - b.x0);
      out.push(
        `<figure><img src="data:image/png;base64,${data}" alt="" width="${w}" style="max-width:100%;height:auto"></figure>`,
      );
    }
  }
  closeLists(0);
  return out.join('\n');
}

function para(p: Para): string {
  const body = inline(paraSpans(p));
  if (p.role === 'heading') return `<h${p.level}>${body}</h${p.level}>`;
  return `<p>${body}</p>`;
}

const style = `body{font-family:Georgia,"Times New Roman",serif;line-height:1.5;max-width:50em;margin:2em auto;padding:0 1em;color:#222}
section.page{border-bottom:1px solid #ccc;padding-bottom:1.5em;margin-bottom:1.5em}
h1,h2,h3,h4,h5,h6{font-family:Helvetica,Arial,sans-serif;line-height:1.25}
table{border-collapse:collapse;margin:1em 0;font-size:.9em}
th,td{border:1px solid #999;padding:.25em .5em;vertical-align:top;text-align:left}
th{background:#f2f2f2}
figure{margin:1em 0}
.note{color:#777;font-style:italic}`;

/** One self-contained HTML file: semantic blocks, images inlined, every piece of text escaped. */
export async function writeHtml(doc: DocLayout, title: string, path: string): Promise<void> {
  const file = await open(path, 'w');
  try {
    await file.write(
      `<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n<meta name="viewport" content="width=device-width, initial-scale=1">\n<title>${escapeHtml(title)}</title>\n<style>\n${style}\n</style>\n</head>\n<body>\n<main>\n`,
    );
    for (const { page, blocks } of flowBlocks(doc)) {
      let body = await blocksHtml(blocks);
      if (page.scanned)
        body = `<p class="note">Page ${page.number} is a scanned image without a text layer.</p>\n${body}`;
      await file.write(
        `<section class="page" id="page-${page.number}" aria-label="Page ${page.number}">\n${body}\n</section>\n`,
      );
    }
    await file.write('</main>\n</body>\n</html>\n');
  } finally {
    await file.close();
  }
}
