import type { DocLayout, Para } from '../layout/types.ts';
import { paraSpans, paraText, tableGrid } from './common.ts';

/** Plain text in reading order: each PDF line kept, a blank line between paragraphs, tables as tab-separated rows. */
export function toText(doc: DocLayout): string {
  const pages: string[] = [];
  for (const page of doc.pages) {
    const parts: string[] = [];
    for (const b of page.blocks) {
      if (b.kind === 'para') parts.push(b.lines.map((l) => l.text).join('\n'));
      else if (b.kind === 'table')
        parts.push(
          tableGrid(b)
            .map((row) => row.join('\t').replace(/\t+$/, ''))
            .filter((r) => r.trim())
            .join('\n'),
        );
    }
    pages.push(parts.filter(Boolean).join('\n\n'));
  }
  return pages.join('\n\n\f') + '\n';
}

function mdEscape(s: string): string {
  return s.replace(/([\\`*_[\]<>|])/g, '\\$1').replace(/^(#{1,6}\s|\d+[.)]\s|[-+]\s|>)/, (m) => '\\' + m);
}

function mdInline(p: Para): string {
  return (
    paraSpans(p)
      .map((s) => {
        const t = mdEscape(s.text);
        const core = t.trim();
        if (!core) return t;
        const lead = t.slice(0, t.indexOf(core));
        const trail = t.slice(t.indexOf(core) + core.length);
        if (s.bold && s.italic) return `${lead}***${core}***${trail}`;
        if (s.bold) return `${lead}**${core}**${trail}`;
        if (s.italic) return `${lead}*${core}*${trail}`;
        return t;
      })
      .join('')
      // A typed line break is CommonMark's hard break, and a line it starts never opens a block.
      .replace(/\n(#{1,6}\s|\d+[.)]\s|[-+]\s|>)?/g, (_, start?: string) => `\\\n${start ? `\\${start}` : ''}`)
  );
}

/** Markdown: headings, lists, paragraphs and pipe tables; pages separated by a rule. */
export function toMarkdown(doc: DocLayout): string {
  const pages: string[] = [];
  for (const page of doc.pages) {
    const parts: string[] = [];
    let listNo = 0;
    for (const b of page.blocks) {
      if (b.kind === 'para') {
        if (b.role === 'heading') {
          parts.push(`${'#'.repeat(b.level)} ${mdEscape(paraText(b))}`);
          listNo = 0;
        } else if (b.role === 'list') {
          const indent = '   '.repeat(b.level);
          listNo++;
          const marker = b.ordered ? `${/^\d+/.exec(b.marker.replace(/^\(/, ''))?.[0] ?? listNo}.` : '-';
          const item = `${indent}${marker} ${mdInline(b)}`;
          // Items of one list stay together, without blank lines between them.
          const prev = parts[parts.length - 1];
          if (prev !== undefined && /^\s*(-|\d+\.) /.test(prev.split('\n').pop() ?? ''))
            parts[parts.length - 1] = `${prev}\n${item}`;
          else parts.push(item);
        } else {
          parts.push(mdInline(b));
          listNo = 0;
        }
      } else if (b.kind === 'table') {
        const grid = tableGrid(b).filter((r) => r.some((c) => c.trim()));
        if (!grid.length) continue;
        const cell = (s: string) => mdEscape(s).replace(/\n/g, ' ');
        const head = grid[0]!;
        const lines = [`| ${head.map(cell).join(' | ')} |`, `|${head.map(() => ' --- ').join('|')}|`];
        for (const row of grid.slice(1)) lines.push(`| ${row.map(cell).join(' | ')} |`);
        parts.push(lines.join('\n'));
      }
    }
    pages.push(parts.join('\n\n'));
  }
  return pages.filter((p) => p.trim()).join('\n\n---\n\n') + '\n';
}
