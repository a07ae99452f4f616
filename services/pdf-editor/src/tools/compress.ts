import { stat } from 'node:fs/promises';
import { findTool } from '@quire/catalog';
import {
  exec,
  pageCount,
  qpdf,
  remaining,
  ToolError,
  verifyResult,
  type ToolContext,
  type ToolRun,
} from '@quire/service-kit';
import { openRepaired, workPath } from '../pdf.ts';

/** Ghostscript's presets for each level: image resolution and quality go down from low to extreme. */
const presets = { low: '/printer', recommended: '/ebook', extreme: '/screen' } as const;

/** qpdf's lossless squeeze: object streams and the best Flate, on every candidate. */
const squeeze = ['--object-streams=generate', '--compress-streams=y', '--recompress-flate', '--compression-level=9'];

/** What Ghostscript may use of the time left, so the other candidates still get returned if it runs long. */
const ghostscriptShare = 0.85;

interface Candidate {
  candidate: string;
  path: string;
}

/**
 * The smallest of: Ghostscript's rewrite at the level asked for (then squeezed by qpdf), qpdf's
 * lossless squeeze alone, and the input as qpdf repaired (and decrypted) it; only those smaller than
 * the upload that pass the tool's checks (pages, text, no blank page). Otherwise the upload itself.
 */
export const compress: ToolRun = async (ctx) => {
  const input = ctx.inputs[0]!;
  const { path: source } = await openRepaired(ctx, input);
  const pages = await pageCount(source, ctx);
  const level = ctx.options.level as keyof typeof presets;

  const squeezed = await attempt(ctx, 'qpdf', async () => {
    const out = workPath(ctx, 'squeezed.pdf');
    await qpdf([source, ...squeeze, out], ctx);
    return out;
  });
  // Ghostscript flattens form fields into plain drawings: a fillable form keeps to lossless qpdf.
  const rewritten = (await hasFormFields(ctx, source))
    ? undefined
    : await attempt(ctx, 'ghostscript', async () => {
        const gs = workPath(ctx, 'gs.pdf');
        await ghostscript(ctx, presets[level], source, gs);
        const out = workPath(ctx, 'gs-squeezed.pdf');
        await qpdf([gs, ...squeeze, out], ctx);
        return out;
      });
  const made: Candidate[] = [
    ...(rewritten ? [{ candidate: 'ghostscript', path: rewritten }] : []),
    ...(squeezed ? [{ candidate: 'qpdf', path: squeezed }] : []),
    { candidate: 'repaired', path: source },
  ];

  // Smallest first; the first that keeps every page, its text and its pixels wins (an exit code is no proof).
  const sized = await Promise.all(made.map(async (c) => ({ ...c, bytes: (await stat(c.path)).size })));
  let best: (Candidate & { bytes: number }) | undefined;
  for (const c of sized.filter((c) => c.bytes < input.size).sort((a, b) => a.bytes - b.bytes)) {
    const checked = await attempt(ctx, `${c.candidate} verification`, () =>
      verifyResult({
        tool: findTool('pdf-compress')!,
        inputs: [{ path: input.path, kind: 'pdf' }],
        options: ctx.options,
        result: { path: c.path, kind: 'pdf' },
        job: ctx,
      }),
    );
    if (checked) {
      best = c;
      break;
    }
  }
  // The input as the tool got it: the upload, or its decrypted copy when it was encrypted.
  const chosen = best ?? { candidate: 'original', path: input.path, bytes: (await stat(input.path)).size };
  return {
    path: chosen.path,
    properties: { pages, bytesBefore: input.size, bytesAfter: chosen.bytes, candidate: chosen.candidate },
  };
};

/**
 * Ghostscript's pdfwrite, always with -dSAFER, within the job's time. Any error it reports counts as
 * a failure: it can still exit 0 and write a page with nothing on it.
 */
async function ghostscript(ctx: ToolContext, preset: string, source: string, out: string): Promise<void> {
  const { code, stdout, stderr } = await exec(
    'gs',
    [
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
    ],
    { timeoutMs: Math.max(1000, Math.floor(remaining(ctx.deadline) * ghostscriptShare)), signal: ctx.signal },
  );
  const said = `${stdout}\n${stderr}`;
  if (code !== 0 || /\*\*\*\* Error|No pages will be processed/i.test(said)) {
    throw new Error(`gs exit ${code}: ${said.trim().slice(0, 2000)}`);
  }
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
