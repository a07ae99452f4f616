import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { classifyHeadings } from '../layout/analyze.ts';
import { markContinuations, markFurniture, markHyphens } from '../layout/flow.ts';
import type { PageLayout } from '../layout/types.ts';
import { line, page, para } from '../../test/layout.ts';
import { writeHtml } from './html.ts';
import { toMarkdown } from './text.ts';

describe('writeHtml', () => {
  it('gives a title on two lines as one heading, joins split words and a paragraph cut by a page break, and leaves footers out', async () => {
    const full = 'x'.repeat(90);
    const pages: PageLayout[] = [1, 2, 3].map((n) =>
      page(n, [
        ...(n === 1 ? [para([line('A Title Broken', 72, 72, 24)]), para([line('Over Two Lines', 100, 72, 24)])] : []),
        para([line(full, 150), line('of great import-', 162), line('ance to us.', 174)]),
        para([line(full, 600), line(full, 612)]),
        para([line(`Folio ${n}`, 760)]),
      ]),
    );
    pages[1]!.blocks.unshift(para([line('goes on here.', 72)]));
    markFurniture(pages, 10);
    markContinuations(pages);
    markHyphens(pages);
    classifyHeadings(pages);
    const out = join(mkdtempSync(join(tmpdir(), 'html-')), 'out.html');
    await writeHtml({ pages, bodySize: 10 }, 'doc', out);
    const html = readFileSync(out, 'utf8');
    expect(html.match(/<h\d>[^<]*<\/h\d>/g)).toEqual(['<h1>A Title Broken Over Two Lines</h1>']);
    expect(html).toContain('of great importance to us.');
    expect(html).toContain(`${full} goes on here.</p>`);
    expect(html).not.toContain('Folio');
  });
});

describe('a line break typed inside a paragraph', () => {
  const lines = () => {
    const ls = [line('Menu paths <File>', 100), line('Dialog buttons', 112), line('# not a heading', 124)];
    ls[0]!.brk = true;
    ls[1]!.brk = true;
    return [page(1, [para(ls)])];
  };

  it('is a <br> in HTML, the text around it escaped', async () => {
    const out = join(mkdtempSync(join(tmpdir(), 'html-')), 'out.html');
    await writeHtml({ pages: lines(), bodySize: 10 }, 'doc', out);
    expect(readFileSync(out, 'utf8')).toContain('<p>Menu paths &lt;File&gt;<br>Dialog buttons<br># not a heading</p>');
  });

  it('is a hard break in Markdown, and the line after it never opens a block', () => {
    expect(toMarkdown({ pages: lines(), bodySize: 10 })).toContain(
      'Menu paths \\<File\\>\\\nDialog buttons\\\n\\# not a heading',
    );
  });
});
