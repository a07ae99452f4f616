import { stat } from 'node:fs/promises';
import { compressionCheckDpi, compressionLevels, findTool, type ToolOptions } from '@quire/catalog';
import { ToolError } from '@quire/base';
import {
  greySimilarity,
  pageCount,
  qpdf,
  renderPage,
  samplePageNumbers,
  VerificationError,
  verifyResult,
  type Grey,
} from '@quire/pdf';
import type { ToolContext, ToolResult } from '@quire/service-kit';
import { ghostscript } from '../../ghostscript.ts';
import { openRepaired, workPath } from '../../pdf.ts';
import { hasMetadata, recompressImages, type ImageReport } from './images.ts';

/** Ghostscript's preset for each level, one of the candidates: resolution and quality go down from low to extreme. */
const presets = { low: '/printer', recommended: '/ebook', extreme: '/screen' } as const;

/** qpdf's lossless squeeze: object streams and the best Flate, on every candidate. */
export const squeeze = [
  '--object-streams=generate',
  '--compress-streams=y',
  '--recompress-flate',
  '--compression-level=9',
];

/** What Ghostscript may use of the time left, so the other candidates still get returned if it runs long. */
const ghostscriptShare = 0.5;

interface Candidate {
  candidate: string;
  path: string;
  images?: ImageReport;
}

/**
 * The smallest of several candidates that keeps every page, its text and its look:
 * - `images`: our own pass: each photographic image brought down to the resolution it is shown at
 *   (at most the level's dpi) and re-encoded with mozjpeg at the lowest quality that keeps the level's
 *   SSIM (CMYK only resampled, in its own inks), copies of an image or font program merged, soft masks
 *   that hide nothing dropped, then object streams and the best Flate;
 * - `ghostscript+images`: Ghostscript's rewrite at the level's preset (it subsets and re-encodes fonts),
 *   then the same image pass and squeeze;
 * - `ghostscript`, `qpdf` (lossless squeeze alone) and `repaired` (the input as qpdf rebuilt it).
 * Only candidates smaller than the upload are tried, smallest first; the first that passes the tool's
 * checks and looks like the input (every sampled page at the level's SSIM, rendered at 72 dpi) wins.
 * Otherwise the upload itself: never larger, never blank.
 */
export async function run(ctx: ToolContext<ToolOptions<'pdf-compress'>>): Promise<ToolResult> {
  const input = ctx.inputs[0]!;
  const { path: source } = await openRepaired(ctx, input);
  const pages = await pageCount(source, ctx);
  const { level } = ctx.options;
  const target = compressionLevels[level];

  const imagesPass = async (from: string, name: string, dropMetadata = false): Promise<Candidate> => {
    const mid = workPath(ctx, `${name}-images.pdf`);
    const images = await recompressImages(from, mid, target, ctx, { dropMetadata });
    const out = workPath(ctx, `${name}.pdf`);
    await qpdf([mid, ...squeeze, out], ctx);
    return { candidate: name, path: out, images };
  };
  // Ghostscript flattens form fields into plain drawings: a fillable form keeps to qpdf and our pass.
  const forms = await hasFormFields(ctx, source);
  const [ours, squeezed, rewritten] = await Promise.all([
    attempt(ctx, 'images', () => imagesPass(source, 'images')),
    attempt(ctx, 'qpdf', async () => {
      const out = workPath(ctx, 'squeezed.pdf');
      await qpdf([source, ...squeeze, out], ctx);
      return { candidate: 'qpdf', path: out };
    }),
    forms
      ? undefined
      : attempt(ctx, 'ghostscript', async () => {
          const gs = workPath(ctx, 'gs.pdf');
          await ghostscript(ctx, ghostscriptArgs(presets[level], source, gs), ghostscriptShare);
          const out = workPath(ctx, 'ghostscript.pdf');
          await qpdf([gs, ...squeeze, out], ctx);
          return { candidate: 'ghostscript', path: out };
        }),
  ]);
  // Ghostscript writes XMP metadata of its own: it goes again when the original had none.
  const both =
    rewritten &&
    (await attempt(ctx, 'ghostscript+images', async () =>
      imagesPass(rewritten.path, 'ghostscript+images', !(await hasMetadata(source, ctx))),
    ));
  const made = [ours, both, rewritten, squeezed, { candidate: 'repaired', path: source }].filter(
    (c): c is Candidate => c !== undefined,
  );

  // Smallest first; the first that keeps every page, its text and its look wins (an exit code is no proof).
  const looks = new Looks(source, pages, target.ssim, ctx);
  const sized = await Promise.all(made.map(async (c) => ({ ...c, bytes: (await stat(c.path)).size })));
  let best: (Candidate & { bytes: number }) | undefined;
  for (const c of sized.filter((c) => c.bytes < input.size).sort((a, b) => a.bytes - b.bytes)) {
    const checked = await attempt(ctx, `${c.candidate} verification`, async () => {
      await verifyResult({
        tool: findTool('pdf-compress')!,
        inputs: [{ path: input.path, kind: 'pdf' }],
        options: ctx.options,
        result: { path: c.path, kind: 'pdf' },
        job: ctx,
      });
      // Lossless candidates cannot change a pixel: only a lossy one is looked at.
      if (c.candidate !== 'qpdf' && c.candidate !== 'repaired') await looks.check(c.path);
      return true;
    });
    if (checked) {
      best = c;
      break;
    }
  }
  // The input as the tool got it: the upload, or its decrypted copy when it was encrypted.
  const chosen = best ?? { candidate: 'original', path: input.path, bytes: (await stat(input.path)).size };
  return {
    path: chosen.path,
    properties: {
      pages,
      bytesBefore: input.size,
      bytesAfter: chosen.bytes,
      candidate: chosen.candidate,
      ...(chosen.images && {
        imagesRecompressed: chosen.images.recompressed,
        copiesMerged: chosen.images.deduplicated,
        opaqueMasksDropped: chosen.images.opaqueMasks,
      }),
    },
  };
}

/** Below this many pixels on its short side at 72 dpi, a page costs nothing to render finer. */
const smallPage = 64;

/**
 * Whether a candidate's pages still look like the input's: a spread of pages, each rendered grey at
 * 72 dpi, must keep the level's SSIM. A page that small at 72 dpi (a stamp-sized image) is judged at
 * 150 dpi as well, where rounding moves whole pixels. The input's renderings are made once for every
 * candidate.
 */
class Looks {
  private readonly rendered = new Map<string, Promise<Grey | undefined>>();
  private readonly pages: number[];

  constructor(
    private readonly source: string,
    count: number,
    private readonly floor: number,
    private readonly ctx: ToolContext,
  ) {
    this.pages = samplePageNumbers(count);
  }

  private original(page: number, dpi: number): Promise<Grey | undefined> {
    const key = `${page}@${dpi}`;
    let grey = this.rendered.get(key);
    if (!grey) this.rendered.set(key, (grey = renderPage(this.source, page, dpi, this.ctx)));
    return grey;
  }

  async check(path: string): Promise<void> {
    for (const page of this.pages) {
      const compare = async (dpi: number) => {
        const [before, after] = await Promise.all([this.original(page, dpi), renderPage(path, page, dpi, this.ctx)]);
        const score = greySimilarity(before, after);
        if (score < this.floor) {
          throw new VerificationError('look', `page ${page} SSIM ${score.toFixed(4)} < ${this.floor} at ${dpi} dpi`);
        }
        return before;
      };
      const coarse = await compare(compressionCheckDpi);
      if (coarse && Math.min(coarse.width, coarse.height) < smallPage) await compare(150);
    }
  }
}

/** Ghostscript's pdfwrite at a preset, always with -dSAFER (also what the benchmark compares with). */
export function ghostscriptArgs(preset: string, source: string, out: string): string[] {
  return [
    '-dSAFER',
    '-dBATCH',
    '-dNOPAUSE',
    '-dQUIET',
    '-sDEVICE=pdfwrite',
    // Pages keep the orientation they were given: pdfwrite would otherwise turn them to follow their text.
    '-dAutoRotatePages=/None',
    `-dPDFSETTINGS=${preset}`,
    `-sOutputFile=${out}`,
    '-f',
    source,
  ];
}

/** Whether the PDF has interactive form fields (qpdf lists them first, so the head of its answer tells). */
async function hasFormFields(ctx: ToolContext, path: string): Promise<boolean> {
  const json = await attempt(ctx, 'form check', () => qpdf(['--json', '--json-key=acroform', path], ctx));
  return json === undefined || /"fields":\s*\[\s*\{/.test(json);
}

/**
 * A candidate that may fail without failing the job (a file Ghostscript chokes on, or one that runs
 * past its share of time); the job's own timeout or cancellation still ends it.
 */
async function attempt<T>(ctx: ToolContext, what: string, make: () => Promise<T>): Promise<T | undefined> {
  try {
    return await make();
  } catch (err) {
    if (ctx.signal.aborted) throw err;
    ctx.log.info('compress candidate failed', {
      candidate: what,
      cause: String(err instanceof ToolError ? err.cause : err),
    });
    return undefined;
  }
}
