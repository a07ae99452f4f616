import { stat } from 'node:fs/promises';
import { findTool, type ToolOptions } from '@quire/catalog';
import { exec, timeLeft, ToolError } from '@quire/base';
import { readStart } from '@quire/detect';
import { pageCount, VerificationError, verifyResult, withPassword } from '@quire/pdf';
import type { ToolContext, ToolResult } from '@quire/service-kit';
import { openInput, workPath } from '../../pdf.ts';
import { mendPageCounts } from '../../page-tree.ts';

type Context = ToolContext<ToolOptions<'repair-pdf'>>;

/** What Ghostscript, the last resort, may use of the time left: the rest is its result's check. */
const ghostscriptShare = 0.8;

/**
 * What was wrong with the input, as qpdf reports it when it reads the file (its full check, and its
 * rewrite), each said once, in this order: the result's `repairs` property.
 */
const damages: [RegExp, string][] = [
  [/can't find PDF header/i, 'the PDF header was missing'],
  [/xref|startxref|cross-reference|expected n n obj|object stream/i, 'the cross-reference table was rebuilt'],
  [/trailer/i, 'the trailer was rebuilt'],
  [/Loop detected in \/Pages|page tree/i, 'the page tree was mended'],
  [/\/Count is wrong/i, 'the page counts were corrected'],
  [
    /error decoding stream data|stream will be re-processed|decompress|inflate|LZW|Flate/i,
    'damaged stream data was read as far as it goes',
  ],
  [/Corrupt JPEG|JPEG data|DCT/i, 'damaged image data was read as far as it goes'],
];

/**
 * Repairs a damaged PDF: qpdf rebuilds it first (its cross-reference table reconstructed, a page tree
 * that loops cut back to its pages), which keeps everything the file holds (forms, bookmarks, links);
 * when that does not give a clean file with every page and word a reader recovers, Ghostscript (with
 * -dSAFER) redraws what it can read of every page. The first that passes the tool's checks (clean for
 * qpdf, the pages a reader shows, their words, nothing blank) is the result; its properties say what
 * was wrong and which engine mended it. A file nothing can be recovered from is `damaged_input`.
 */
export async function run(ctx: Context): Promise<ToolResult> {
  const input = ctx.inputs[0]!;
  const source = await openInput(ctx, input);
  // What was wrong is told of the upload itself: decrypting it has repaired what qpdf could already.
  const diagnosis = diagnose(ctx, input.upload ?? input.path);
  diagnosis.catch(() => undefined);

  let engine: 'qpdf' | 'ghostscript' | undefined;
  let path: string | undefined;
  const rebuilt = await attempt(ctx, 'qpdf', () => rebuild(ctx, source));
  if (rebuilt && (await passes(ctx, source, rebuilt.path))) [engine, path] = ['qpdf', rebuilt.path];
  else {
    const drawn = workPath(ctx, 'redrawn.pdf');
    if (
      (await attempt(ctx, 'ghostscript', () => ghostscript(ctx, source, drawn))) &&
      (await passes(ctx, source, drawn))
    )
      [engine, path] = ['ghostscript', drawn];
  }
  const { said, junk } = await diagnosis;
  if (!engine || !path)
    throw new ToolError('damaged_input', 'This PDF is too damaged: no page of it could be recovered.', {
      cause: new Error(`nothing recovered; qpdf: ${said.slice(0, 1000)}`),
    });
  const repairs = describe(`${said}\n${rebuilt?.said ?? ''}`);
  if (junk) repairs.unshift('junk before the PDF header was dropped');
  return {
    path,
    properties: {
      pages: await pageCount(path, ctx),
      damaged: repairs.length > 0,
      repairs,
      engine,
      wasEncrypted: input.encrypted ?? source !== input.path,
      bytesBefore: input.size,
      bytesAfter: (await stat(path)).size,
    },
  };
}

/** Each damage qpdf's words name, once, in the order of `damages`; anything else it warned of, as other damage. */
function describe(said: string): string[] {
  const warnings = said.split('\n').filter((l) => /^(WARNING|ERROR):|Corrupt JPEG/i.test(l.trim()));
  const named = damages.filter(([pattern]) => warnings.some((w) => pattern.test(w))).map(([, what]) => what);
  const generic = /file is damaged|Attempting to reconstruct|operation succeeded/i;
  const other = warnings.some((w) => !generic.test(w) && !damages.some(([pattern]) => pattern.test(w)));
  return [...named, ...(other ? ['other damage was mended'] : [])];
}

/**
 * What qpdf's full check says of the upload (every stream decoded; an encrypted one opened with the
 * request's password), and whether junk comes before its header.
 */
async function diagnose(ctx: Context, upload: string): Promise<{ said: string; junk: boolean }> {
  const [check, head] = await Promise.all([
    withPassword(ctx.password, ctx, (pw) =>
      exec('qpdf', ['--check', ...pw, upload], { timeoutMs: timeLeft(ctx.deadline), signal: ctx.signal }),
    ),
    readStart(upload, 1024 * 1024),
  ]);
  const at = head.indexOf('%PDF-');
  return { said: `${check.stderr}\n${check.stdout}`, junk: at > 0 };
}

/**
 * qpdf's rebuild: the file rewritten from the list of its pages, its cross-reference table
 * reconstructed when it has to be. A page tree that loops, or whose counts are wrong, is mended first
 * (loops cut back, counts set to the pages held), then rebuilt.
 */
async function rebuild(ctx: Context, source: string): Promise<{ path: string; said: string }> {
  const out = workPath(ctx, 'rebuilt.pdf');
  const write = (from: string) =>
    exec('qpdf', [from, '--pages', '.', '--', out], { timeoutMs: timeLeft(ctx.deadline), signal: ctx.signal });
  const first = await write(source);
  if (first.code === 0 || first.code === 3) return { path: out, said: first.stderr };
  if (!/Loop detected in \/Pages|\/Count is wrong/.test(first.stderr))
    throw new Error(`qpdf exit ${first.code}: ${first.stderr.slice(0, 2000)}`);
  const mended = workPath(ctx, 'mended.pdf');
  await mendPageCounts(source, mended, ctx, { cutLoops: true });
  const again = await write(mended);
  if (again.code !== 0 && again.code !== 3) throw new Error(`qpdf exit ${again.code}: ${again.stderr.slice(0, 2000)}`);
  return { path: out, said: `${first.stderr}\n${again.stderr}` };
}

/**
 * Ghostscript's pdfwrite with -dSAFER, at its default settings (no image is made smaller), pages kept
 * as they are turned. It reports errors on a damaged file and still draws what it read: its result is
 * judged by the checks, not by what it says. Only a failure to write one is a failure here, or its
 * word that it found no page (it then writes one blank page all the same).
 */
async function ghostscript(ctx: Context, source: string, out: string): Promise<true> {
  const args = ['-dSAFER', '-dBATCH', '-dNOPAUSE', '-dQUIET', '-sDEVICE=pdfwrite', '-dAutoRotatePages=/None'];
  const { code, stdout, stderr } = await exec('gs', [...args, `-sOutputFile=${out}`, '-f', source], {
    timeoutMs: Math.max(1000, Math.floor(timeLeft(ctx.deadline) * ghostscriptShare)),
    signal: ctx.signal,
  });
  const size = await stat(out).then(
    (s) => s.size,
    () => 0,
  );
  const said = `${stdout}\n${stderr}`.trim();
  if (code !== 0 || size === 0 || /No pages will be processed/i.test(said))
    throw new Error(`gs exit ${code}: ${said.slice(0, 2000)}`);
  return true;
}

/** Whether a candidate keeps the tool's promise: clean, with the pages a reader shows of the input and their words. */
async function passes(ctx: Context, source: string, path: string): Promise<boolean> {
  const checked = await attempt(ctx, 'verification', () =>
    verifyResult({
      tool: findTool('repair-pdf')!,
      inputs: [{ path: source, kind: 'pdf' }],
      options: ctx.options,
      result: { path, kind: 'pdf' },
      job: ctx,
    }),
  );
  return checked !== undefined;
}

/**
 * A step that may fail without failing the job (a file qpdf cannot read, a candidate that fails its
 * checks); the job's own timeout or cancellation still ends it.
 */
async function attempt<T>(ctx: Context, what: string, make: () => Promise<T>): Promise<T | undefined> {
  try {
    return await make();
  } catch (err) {
    // The job's end, or its time up in a program, ends the repair too.
    if (ctx.signal.aborted || (err instanceof ToolError && err.code === 'timeout')) throw err;
    ctx.log.info('repair step failed', {
      step: what,
      ...(err instanceof VerificationError && { check: err.check }),
      cause: String(err instanceof ToolError ? err.cause : err),
    });
    return undefined;
  }
}
