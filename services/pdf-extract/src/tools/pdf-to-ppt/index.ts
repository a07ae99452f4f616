import { mkdir, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { ToolOptions } from '@quire/catalog';
import { exec, timeLeft, ToolError } from '@quire/base';
import type { ToolContext, ToolResult } from '@quire/service-kit';
import { readInput, summary, type InputDoc } from '../../input.ts';
import { writePptx } from '../../render/pptx.ts';

/** Longest side of a slide background, in pixels. */
const maxSide = 1600;

/** One slide per page: the page's graphics without its text as the background, the text editable on top. */
export function run(ctx: ToolContext<ToolOptions<'pdf-to-ppt'>>): Promise<ToolResult> {
  return readInput(ctx, { images: false, ocr: ctx.options }, (doc) => slides(ctx, doc));
}

async function slides(ctx: ToolContext, doc: InputDoc): Promise<ToolResult> {
  const dir = join(ctx.workdir, 'slides');
  await mkdir(dir, { recursive: true });
  const largest = Math.max(...doc.pages.map((p) => Math.max(p.width, p.height)), 1);
  const dpi = Math.max(36, Math.min(150, Math.floor((maxSide * 72) / largest)));
  // Ghostscript as its own process (it is AGPL: never linked), -dSAFER, text filtered out.
  const { code, stderr } = await exec(
    'gs',
    [
      '-dSAFER',
      '-dBATCH',
      '-dNOPAUSE',
      '-dQUIET',
      '-dFILTERTEXT',
      '-sDEVICE=png16m',
      `-r${dpi}`,
      '-dTextAlphaBits=4',
      '-dGraphicsAlphaBits=4',
      `-sOutputFile=${join(dir, 'bg-%d.png')}`,
      doc.source,
    ],
    {
      timeoutMs: timeLeft(ctx.deadline),
      signal: ctx.signal,
      cwd: ctx.workdir,
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', TMPDIR: ctx.workdir },
    },
  ).catch(async (err: unknown) => {
    if (err instanceof ToolError && err.code === 'timeout') throw err;
    return { code: -1, stderr: String(err), stdout: '' };
  });
  let files: string[] = [];
  try {
    files = await readdir(dir);
  } catch {
    files = [];
  }
  // A scan read by OCR gives its words as text; its picture behind them would show every word twice.
  const backgrounds = doc.pages.map((p, i) =>
    files.includes(`bg-${i + 1}.png`) && !(p.ocr && p.chars > 0) ? join(dir, `bg-${i + 1}.png`) : undefined,
  );
  if (code !== 0) ctx.log.warn('ghostscript could not render every background', { code, stderr: stderr.slice(0, 500) });
  const out = join(ctx.workdir, 'out.pptx');
  await writePptx(doc, backgrounds, out);
  return {
    path: out,
    properties: summary(doc, { slides: doc.pages.length, backgrounds: backgrounds.filter(Boolean).length }),
  };
}
