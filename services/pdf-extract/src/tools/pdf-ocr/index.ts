import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { exec, timeLeft, ToolError } from '@quire/base';
import type { ToolOptions } from '@quire/catalog';
import { pageCount, VerificationError } from '@quire/pdf';
import type { ToolContext, ToolResult } from '@quire/service-kit';
import { maxOcrPages, maxOcrPixels, withInk } from '../../ocr/pages.ts';
import { ocrmypdf, type OcrChoices } from './ocrmypdf.ts';
import { hasText, leastLikeness, textByPage } from './pages.ts';

/** Below this SSIM against its input, a page no longer looks like it (when it was neither deskewed nor turned). */
const minLikeness = 0.99;

const imageToPdf = fileURLToPath(new URL('./image-pdf.py', import.meta.url));

/**
 * A searchable PDF: the pages as they were, with Tesseract's words in an invisible layer under them.
 * Pages that already have text are left alone (`skip`) or have an earlier OCR layer replaced (`redo`).
 * Checked here beyond the catalog's promise: the pages are all there, pages that had text kept it
 * (skip), and sampled pages look like the input's unless they were deskewed or turned.
 */
export async function run(ctx: ToolContext<ToolOptions<'pdf-ocr'>>): Promise<ToolResult> {
  const choices: OcrChoices = ctx.options;
  if (choices.deskew && choices.existingText === 'redo')
    throw new ToolError(
      'invalid_option',
      'Straightening pages (deskew) cannot be combined with redoing existing text.',
    );
  const input = ctx.inputs[0]!;
  const source = input.kind === 'pdf' ? input.path : await imagePdf(input.path, ctx);
  const pages = await pageCount(source, ctx);
  const most = maxOcrPages(ctx.timeMs);
  if (pages > most)
    throw new ToolError(
      'file_too_large',
      `This PDF has ${pages} pages; OCR reads at most ${most} pages at a time. Split it first.`,
    );
  const before = await textByPage(source, pages, ctx);
  const hadText = before.map(hasText);
  const language = choices.language.join('+');
  const asked = { language, existingText: choices.existingText, deskew: choices.deskew, rotate: choices.rotate };

  // Nothing to read and nothing to convert: the PDF as it came (decrypted), not a rewritten copy.
  if (choices.existingText === 'skip' && !choices.pdfa && hadText.every(Boolean))
    return unchanged(source, pages, asked);
  const out = join(ctx.workdir, 'searchable.pdf');
  const outcome = await ocrmypdf(source, out, choices, ctx);
  if (outcome === 'had-text') return unchanged(source, pages, asked);

  if ((await pageCount(out, ctx)) !== pages) throw new VerificationError('pages', 'OCR changed the page count');
  // Compared while the text is read here and the kit checks the result (rendering pages of its own).
  const checking =
    choices.deskew || choices.rotate
      ? undefined
      : leastLikeness(source, out, pages, ctx).then((likeness) => {
          if (likeness < minLikeness)
            throw new VerificationError('looks', `a sampled page's SSIM is ${likeness.toFixed(4)}`);
        });
  // Awaited by the kit; until then, a failure here waits for it so nothing runs on after the call.
  checking?.catch(() => undefined);
  const pagesWithoutText = await textLayer(out, pages, before, choices, ctx).catch(async (err: unknown) => {
    await checking?.catch(() => undefined);
    throw err;
  });
  const ocrPages = pageNumbers(before.map((t) => choices.existingText === 'redo' || !hasText(t)));
  return {
    path: out,
    // OCRmyPDF decodes and checks every stream of what it writes (exit 0), but not of a PDF/A it failed to make.
    streamsChecked: outcome === 'done',
    ...(checking && { checking }),
    properties: {
      pages,
      ocrPages,
      pagesWithoutText,
      ...asked,
      pdfa: choices.pdfa && outcome === 'done',
      ...(pagesWithoutText.length && { note: 'OCR found no text on some pages that are not blank.' }),
      ...(outcome === 'not-pdfa' && { note: 'The PDF is searchable but could not be made PDF/A.' }),
    },
  };
}

/**
 * The pages OCR was to read that came out without text though they are not blank; throws when a page
 * that had text lost it (skip).
 */
async function textLayer(
  out: string,
  pages: number,
  before: string[],
  choices: OcrChoices,
  ctx: ToolContext,
): Promise<number[]> {
  const after = await textByPage(out, pages, ctx);
  const hadText = before.map(hasText);
  if (choices.existingText === 'skip') {
    const changed = before.findIndex((t, i) => hadText[i] && words(t) !== words(after[i]!));
    if (changed >= 0) throw new VerificationError('text', `page ${changed + 1} had text and it changed`);
  }
  const ocrPages = pageNumbers(hadText.map((had) => choices.existingText === 'redo' || !had));
  return withInk(
    out,
    ocrPages.filter((p) => !hasText(after[p - 1]!)),
    ctx,
  );
}

function unchanged(source: string, pages: number, asked: Record<string, unknown>): ToolResult {
  return {
    path: source,
    properties: {
      pages,
      ocrPages: [],
      pagesWithoutText: [],
      ...asked,
      pdfa: false,
      unchanged: true,
      note: 'Every page already has text, so the PDF is returned as it was.',
    },
  };
}

/** An image, every frame a page, as a PDF; file_too_large past the limits, damaged_input when it does not read. */
async function imagePdf(image: string, ctx: ToolContext): Promise<string> {
  const out = join(ctx.workdir, 'image.pdf');
  const args = [imageToPdf, image, out, String(maxOcrPixels), String(maxOcrPages(ctx.timeMs))];
  const { code, stderr } = await exec('/usr/bin/python3', args, {
    timeoutMs: timeLeft(ctx.deadline),
    signal: ctx.signal,
  });
  if (code === 0) return out;
  if (code === 3) throw new ToolError('file_too_large', stderr.trim());
  throw new ToolError('damaged_input', undefined, {
    cause: new Error(`image-pdf exit ${code}: ${stderr.slice(-2000)}`),
  });
}

const words = (text: string) => text.split(/\s+/).filter(Boolean).join(' ');

const pageNumbers = (flags: boolean[]) => flags.flatMap((f, i) => (f ? [i + 1] : []));
