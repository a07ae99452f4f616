import { readFile, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { RedactionBox, ToolOptions } from '@quire/catalog';
import { exec, fail, timeLeft, ToolError } from '@quire/base';
import { pageCount, qpdf, VerificationError } from '@quire/pdf';
import type { ToolContext, ToolResult } from '@quire/service-kit';
import { openInput, workPath } from '../../pdf.ts';
import { findMatches, rangesByPage, searchesOf, type Match, type MatchKind } from './matches.ts';

const script = fileURLToPath(new URL('./mupdf-redact.js', import.meta.url));

/** Runs the MuPDF script; a file MuPDF cannot read or write is the input's fault. */
async function mutool(ctx: ToolContext, args: string[]): Promise<void> {
  const { code, stderr } = await exec('mutool', ['run', script, ...args], {
    timeoutMs: timeLeft(ctx.deadline),
    signal: ctx.signal,
  });
  if (code !== 0) fail('damaged_input', undefined, new Error(`mutool exit ${code}: ${stderr.slice(0, 2000)}`));
}

/**
 * Redacts for real with MuPDF: the words, patterns and regular expression are found in each page's
 * text (findMatches, bounded in time), and they and the boxes become redaction areas that MuPDF
 * applies: the glyphs under them leave the content stream, image pixels under them are blanked, and a
 * black box is drawn in their place. The metadata is then cleaned when asked, and the result's text is
 * read back by pdftotext: any match still in it fails the call.
 */
export async function run(ctx: ToolContext<ToolOptions<'redact-pdf'>>): Promise<ToolResult> {
  const o = ctx.options;
  const source = await openInput(ctx, ctx.inputs[0]!);
  const pages = await pageCount(source, ctx);
  const boxes = o.boxes ?? [];
  const outside = boxes.find((b) => b.page > pages);
  if (outside)
    fail(
      'invalid_option',
      `The option "boxes" is not valid: page ${outside.page} is past the end (the document has ${pages}).`,
      undefined,
      { option: 'boxes', pages },
    );

  const searches = searchesOf(o);
  let matches: Match[] = [];
  if (searches.length) {
    const textFile = workPath(ctx, 'text.json');
    await mutool(ctx, ['text', source, textFile]);
    const texts = JSON.parse(await readFile(textFile, 'utf8')) as string[];
    matches = await findMatches(searches, texts, ctx.signal);
  }

  const plan = planOf(rangesByPage(matches), boxes);
  const planFile = workPath(ctx, 'plan.json');
  await writeFile(planFile, JSON.stringify(plan));
  const redacted = workPath(ctx, 'redacted.pdf');
  await mutool(ctx, ['apply', source, planFile, redacted]).catch(async (err: unknown) => {
    // MuPDF will not save some files other readers open (an object missing from its object stream):
    // once more on qpdf's rewrite of the file, which the text found above still matches.
    const rewritten = workPath(ctx, 'rewritten.pdf');
    await qpdf([source, '--object-streams=disable', rewritten], ctx).catch(() => {
      throw err;
    });
    await mutool(ctx, ['apply', rewritten, planFile, redacted]);
  });
  let out = redacted;
  if (o.cleanMetadata) {
    out = workPath(ctx, 'cleaned.pdf');
    await (await import('../pdf-metadata-cleaner/clean-metadata.ts')).scrubMetadata(redacted, out);
  }
  await checkGone(ctx, out, matches, o.matchCase);

  const count = (kind: MatchKind) => matches.filter((m) => m.kind === kind).length;
  return {
    path: out,
    properties: {
      pages: await pageCount(out, ctx),
      terms: count('terms'),
      emails: count('emails'),
      phones: count('phones'),
      regex: count('regex'),
      boxes: boxes.length,
      pagesRedacted: plan.length,
      metadataCleaned: o.cleanMetadata,
    },
  };
}

interface PagePlan {
  page: number;
  ranges: [number, number][];
  boxes: [number, number, number, number][];
}

/** What the MuPDF script redacts on each page (from 0) that has anything to redact. */
function planOf(ranges: Map<number, [number, number][]>, boxes: RedactionBox[]): PagePlan[] {
  const byPage = new Map<number, PagePlan>();
  const at = (page: number) => byPage.get(page) ?? byPage.set(page, { page, ranges: [], boxes: [] }).get(page)!;
  for (const [page, list] of ranges) at(page).ranges.push(...list);
  for (const b of boxes) at(b.page - 1).boxes.push([b.x, b.y, b.width, b.height]);
  return [...byPage.values()].sort((a, b) => a.page - b.page);
}

/** Whitespace as one space, and letters in one case unless the case mattered. */
const normalized = (text: string, matchCase: boolean) => {
  const flat = text.normalize('NFKC').replace(/\s+/gu, ' ');
  return matchCase ? flat : flat.toLowerCase();
};

/** Reads the result's text with pdftotext (another reader than the one that found the matches): none may be left. */
async function checkGone(ctx: ToolContext, file: string, matches: Match[], matchCase: boolean): Promise<void> {
  if (matches.length === 0) return;
  const textFile = workPath(ctx, 'result.txt');
  const r = await exec('pdftotext', ['-q', '-enc', 'UTF-8', file, textFile], {
    timeoutMs: timeLeft(ctx.deadline),
    signal: ctx.signal,
  });
  if (r.code !== 0) throw new ToolError('internal', undefined, { cause: new Error(`pdftotext exit ${r.code}`) });
  const text = normalized(await readFile(textFile, 'utf8'), matchCase);
  const left = new Set(matches.map((m) => normalized(m.text, matchCase).trim()).filter((t) => text.includes(t)));
  if (left.size) throw new VerificationError('redaction', `${left.size} redacted texts are still in the result`);
}
