import { mkdir, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { ToolOptions } from '@quire/catalog';
import { mapLimit, parallelism, stem } from '@quire/base';
import { createZip, pageCount, qpdf, type ZipWriter } from '@quire/pdf';
import type { ToolContext, ToolResult } from '@quire/service-kit';
import { openInput, pageRangesIn, qpdfRange, workPath } from '../../pdf.ts';

interface Part {
  path: string;
  name: string;
  pages: number;
}

/** How often the pages qpdf has written so far are looked for, while it splits. */
const watchInterval = 150;

/**
 * A ZIP of PDFs: one per range asked for, or one per page by default, named after the input and the
 * pages each holds (`report-p1-3.pdf`, `report-p4.pdf`), in order.
 */
export async function run(ctx: ToolContext<ToolOptions<'pdf-split'>>): Promise<ToolResult> {
  const input = ctx.inputs[0]!;
  const source = await openInput(ctx, input);
  const spec = ctx.options.ranges;
  const ranges = spec === undefined ? undefined : pageRangesIn(spec, await pageCount(source, ctx), 'ranges');
  const zipPath = workPath(ctx, 'split.zip');
  const zip = createZip(zipPath);
  try {
    const parts = ranges
      ? await splitRanges(ctx, source, ranges, stem(input.name), zip)
      : await splitEvery(ctx, source, stem(input.name), zip);
    await zip.close();
    return { path: zipPath, properties: { files: parts.length, pages: parts.reduce((n, p) => n + p.pages, 0) } };
  } catch (err) {
    await zip.abort();
    throw err;
  }
}

function partName(base: string, first: number, last: number): string {
  return first === last ? `${base}-p${first}.pdf` : `${base}-p${first}-${last}.pdf`;
}

/**
 * One qpdf run per range, a few side by side, the document's own structures (outlines, forms) kept
 * as qpdf does; each part joins the ZIP, in order, as soon as the parts before it are done.
 */
async function splitRanges(
  ctx: ToolContext,
  source: string,
  ranges: number[][],
  base: string,
  zip: ZipWriter,
): Promise<Part[]> {
  const seen = new Map<string, number>();
  const parts = ranges.map((pages, i): Part => {
    const name = partName(base, pages[0]!, pages.at(-1)!);
    const n = (seen.get(name) ?? 0) + 1;
    seen.set(name, n);
    const unique = n === 1 ? name : name.replace(/\.pdf$/, `-copy${n}.pdf`);
    return { path: workPath(ctx, `part-${i + 1}.pdf`), name: unique, pages: pages.length };
  });
  const done: boolean[] = [];
  let added = 0;
  await mapLimit(ranges, parallelism(), async (pages, i) => {
    await qpdf([source, '--pages', '.', qpdfRange(pages), '--', parts[i]!.path], ctx);
    done[i] = true;
    for (; added < parts.length && done[added]; added++) zip.add(parts[added]!.path, parts[added]!.name);
  });
  return parts;
}

/**
 * Every page on its own, by one qpdf --split-pages run (cutting the document into runs of pages for
 * several qpdf processes costs more in all than it saves). qpdf writes the pages one after another,
 * so each file is added to the ZIP as soon as the next one appears: zipping overlaps the splitting.
 */
async function splitEvery(ctx: ToolContext, source: string, base: string, zip: ZipWriter): Promise<Part[]> {
  const dir = workPath(ctx, 'pages');
  await mkdir(dir);
  const parts: Part[] = [];
  const addFinished = async (all: boolean) => {
    // qpdf pads the page number to the width of the last one (p-0001.pdf...); order by the number.
    const files = (await readdir(dir))
      .map((file) => ({ file, page: Number(/^p-(\d+)\.pdf$/.exec(file)?.[1]) }))
      .filter((f) => Number.isInteger(f.page))
      .sort((a, b) => a.page - b.page);
    // The newest file may still be being written until qpdf has moved on or finished.
    for (const { file, page } of files.slice(parts.length, all ? files.length : files.length - 1)) {
      zip.add(join(dir, file), partName(base, page, page));
      parts.push({ path: join(dir, file), name: partName(base, page, page), pages: 1 });
    }
  };
  let finished = false;
  const splitting = qpdf(['--split-pages', source, join(dir, 'p-%d.pdf')], ctx).finally(() => (finished = true));
  const settled = splitting.then(
    () => undefined,
    () => undefined,
  );
  while (!finished) {
    await Promise.race([settled, new Promise((resolve) => setTimeout(resolve, watchInterval))]);
    if (!finished) await addFinished(false);
  }
  await splitting;
  await addFinished(true);
  return parts;
}
