import { join } from 'node:path';
import { pagesOf, type ResultChecks } from '@quire/catalog';
import type { Job } from '@quire/base';
import { encryptPdf, pageCount, qpdf, writeDocumentInfo } from '@quire/pdf';
import { GotenbergError } from './errors.ts';
import { splitError, type ConvertForm } from './form.ts';
import { drawMarks } from './marks.ts';

/** A PDF of the answer: its name in a zip, the converted (or merged) PDF it comes from, and which of its pages. */
export interface Output {
  path: string;
  name: string;
  source: string;
  /** The source's pages it holds, in order; undefined for all of them. */
  pages?: number[];
}

let steps = 0;
const next = (job: Job, what: string) => join(job.workdir, `${what}-${++steps}.pdf`);

/** Whether the form asks for anything done to the converted PDFs beyond merging them. */
export function postProcessing(form: ConvertForm): boolean {
  return Boolean(
    form.split ||
    form.watermarks.length ||
    form.stamps.length ||
    form.rotate ||
    form.flatten ||
    form.metadata ||
    form.embeds.length ||
    form.encrypt,
  );
}

/**
 * What Gotenberg does to the converted PDFs, in its order: split, watermarks, stamps, rotate, flatten,
 * metadata, embedded files, encryption, by qpdf (the marks by pdf-lib). Each output keeps track of the pages of its source it holds, so
 * that it can be verified against it.
 */
export async function postProcess(outputs: Output[], form: ConvertForm, job: Job): Promise<Output[]> {
  let done = outputs;
  if (form.split) {
    const split = form.split;
    done = (await Promise.all(done.map((o) => splitOutput(o, split, job)))).flat();
  }
  for (const o of done) {
    const step = async (what: string, work: (out: string) => Promise<unknown>) => {
      const out = next(job, what);
      await work(out);
      o.path = out;
    };
    const embedFonts = Boolean(form.pdfa);
    if (form.watermarks.length)
      await step('watermarked', (out) => drawMarks(o.path, out, form.watermarks, 'watermark', { embedFonts }));
    if (form.stamps.length)
      await step('stamped', (out) => drawMarks(o.path, out, form.stamps, 'stamp', { embedFonts }));
    if (form.rotate) {
      const { angle, pages } = form.rotate;
      await step('rotated', (out) =>
        qpdf([o.path, out, `--rotate=+${angle}${pages ? `:${qpdfPages(pages)}` : ''}`], job),
      );
    }
    // Form fields drawn first, then every annotation, fields included, drawn into the pages' content.
    if (form.flatten)
      await step('flat', (out) => qpdf(['--generate-appearances', '--flatten-annotations=all', o.path, out], job));
    if (form.metadata) {
      const metadata = form.metadata;
      await step('info', (out) => writeDocumentInfo(o.path, out, metadata, job));
    }
    if (form.embeds.length) {
      const attach = form.embeds.flatMap((e) => [
        '--add-attachment',
        e.path,
        `--key=${e.name}`,
        `--filename=${e.name}`,
        '--',
      ]);
      await step('embeds', (out) => qpdf([o.path, ...attach, out], job));
    }
    if (form.encrypt) {
      const { userPassword, ownerPassword, restrictions } = form.encrypt;
      await step('encrypted', (out) =>
        encryptPdf(o.path, out, { userPassword, ...(ownerPassword ? { ownerPassword } : {}), restrictions }, job),
      );
    }
  }
  return done;
}

/** qpdf's page ranges from the catalog's (an open range runs to the last page, `z` in qpdf's). */
function qpdfPages(spec: string): string {
  return spec.replace(/-(?=,|$)/g, '-z');
}

/**
 * Gotenberg's split of one PDF: `intervals` cuts it into runs of `span` pages; `pages` takes the pages
 * `span` names, one PDF each, or all in one (unify). Parts are named after the document and their
 * index: `report.docx_0.pdf`.
 */
async function splitOutput(o: Output, split: NonNullable<ConvertForm['split']>, job: Job): Promise<Output[]> {
  const count = await pageCount(o.path, job);
  const all = Array.from({ length: count }, (_, i) => i + 1);
  let parts: number[][];
  if (split.mode === 'intervals') {
    const span = Number(split.span);
    parts = [];
    for (let i = 0; i < count; i += span) parts.push(all.slice(i, i + span));
  } else {
    let pages: number[];
    try {
      pages = pagesOf(split.span, count);
    } catch (err) {
      throw new GotenbergError(400, splitError, {}, { cause: err });
    }
    parts = split.unify ? [pages] : pages.map((p) => [p]);
  }
  const base = o.name.replace(/\.pdf$/i, '');
  if (split.unify) {
    const path = next(job, 'unified');
    await qpdf([o.path, '--pages', '.', parts[0]!.join(','), '--', path], job);
    return [{ ...o, path, pages: parts[0]! }];
  }
  return Promise.all(
    parts.map(async (pages, i) => {
      const path = next(job, 'part');
      await qpdf([o.path, '--pages', '.', pages.join(','), '--', path], job);
      return { path, name: `${base}_${i}.pdf`, source: o.source, pages };
    }),
  );
}

/**
 * What an output promises of itself against its source, held to the catalog's checks: the pages it
 * holds in order with their text and pixels, locked as asked (the options name the form's fields),
 * PDF/A as asked.
 */
export function outputPromise(
  o: Output,
  form: ConvertForm,
  sourcePages: number,
): {
  checks: ResultChecks;
  options: Record<string, unknown>;
} {
  const held = new Set(o.pages ?? []);
  const removed = o.pages ? Array.from({ length: sourcePages }, (_, i) => i + 1).filter((p) => !held.has(p)) : [];
  const e = form.encrypt;
  const checks: ResultChecks = {
    ...(removed.length ? { pages: 'kept' } : { pages: 'same' }),
    text: 'kept',
    pixels: true,
    ...(e && {
      encrypted: {
        password: 'userPassword',
        ownerPassword: 'ownerPassword',
        permissions: {
          print: 'allowPrinting',
          copy: 'allowCopying',
          modify: 'allowModifying',
          assemble: 'allowAssembling',
          annotate: 'allowAnnotating',
          fillForms: 'allowFillingForms',
        },
      },
    }),
    ...(form.pdfa && { archival: true }),
  };
  const options = {
    ...(removed.length ? { pages: removed.join(',') } : {}),
    ...(e && { userPassword: e.userPassword, ownerPassword: e.ownerPassword ?? '', ...e.granted }),
  };
  return { checks, options };
}
