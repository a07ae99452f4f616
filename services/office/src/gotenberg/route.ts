import { randomUUID } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import type express from 'express';
import type { Request, Response } from 'express';
import { findTool, type Tool } from '@quire/catalog';
import { trackRequest, type Job } from '@quire/base';
import { detectOfficeFormat, type OfficeFormat } from '@quire/detect';
import { createZip, pageCount, qpdf, verifyCounted } from '@quire/pdf';
import { propertiesHeader, runJob, uploadMiddleware, workdirMiddleware } from '@quire/http';
import type { ServiceKit } from '@quire/service-kit';
import { convertDocument } from '../convert.ts';
import type { OfficeEngine } from '../engine/engine.ts';
import { withoutScrollPositions } from '../sheet-view.ts';
import { toolFamilies } from '../to-pdf.ts';
import { GotenbergError, notMultipart, sendError, toGotenbergError, uploadError } from './errors.ts';
import { markFileFields, outputFilename, readConvertForm, refusedFileFields, type ConvertForm } from './form.ts';
import { outputPromise, postProcess, postProcessing, type Output } from './post.ts';

/**
 * Gotenberg 8.36's LibreOffice route, so that Gotenberg clients talk to this service, and an operator
 * can put the official gotenberg/gotenberg:8 image in its place by changing one URL. Same form
 * fields, same status codes, plain-text errors, same headers. It runs on the kit's pipeline, as the
 * catalog tools do: the work folder, the upload, the queue, the deadline, the abort when the client
 * goes away, and every result verified (a result that fails is Gotenberg's 500). What Gotenberg does
 * after converting (split, rotate, flatten, metadata, embedded files, encryption) is done by qpdf
 * through @quire/pdf's helpers; PDF/A and PDF/UA are LibreOffice's own. Differences from Gotenberg,
 * all on the safe side: documents are judged by content, not by their names' extensions (a file that
 * is not an office document is a 415); the fields it does not do (pdfcpu's watermarks and stamps,
 * image optimisation, Factur-X, embedded files' metadata, `downloadFrom`, webhooks) are refused with
 * a 400 naming them, never ignored (see form.ts).
 */
export function libreOfficeRoute(app: express.Express, kit: ServiceKit, engine: OfficeEngine): void {
  const upload = uploadMiddleware(['files', 'embeds', ...markFileFields, ...Object.keys(refusedFileFields)]);
  app.post(
    '/forms/libreoffice/convert',
    (req, res, next) => {
      res.setHeader('Gotenberg-Trace', traceOf(req, res));
      if (!req.is('multipart/form-data')) return sendError(res, kit, notMultipart());
      next();
    },
    workdirMiddleware('office'),
    (req, res, next) => upload(req, res, (err?: unknown) => (err ? sendError(res, kit, uploadError(err)) : next())),
    async (req, res) => {
      // Counted from here, as the kit's routes are: a request refused before its upload was read is not.
      const finish = trackRequest(kit, route, res.locals.requestId as string);
      let pageRange = '';
      let converting = '';
      let password = false;
      try {
        const form = readConvertForm(req);
        pageRange = form.pageRange;
        password = Boolean(form.password);
        const formats = await officeFormats(form.files);
        // As Gotenberg: a password for a document that plainly has none is the client's mistake.
        const open = form.password ? form.files.find((_, i) => formats[i]!.protection === 'none') : undefined;
        if (open)
          throw new GotenbergError(
            400,
            `The document '${open.name}' is not password-protected. Remove the 'password' form field.`,
          );
        // Every document is converted and verified, and so is the merge, inside the queue slot and the time limit.
        const answer = await runJob(res, res.locals.workdir as string, kit, async (job) => {
          const made: Offered[] = [];
          for (const [i, file] of form.files.entries()) {
            converting = file.name;
            made.push(await convertVerified(engine, kit, form, { ...file, format: formats[i]! }, job));
          }
          return assemble(made, form, job, kit);
        });
        await send(req, res, answer);
        finish('ok');
      } catch (err) {
        const error = toGotenbergError(err, { pageRange, file: converting, password });
        finish(String(error.status));
        sendError(res, kit, error);
      }
    },
  );
}

/** The route's name in metrics and logs, beside the catalog's tool ids. */
const route = 'libreoffice-convert';

/** Each file's format, judged by content before any work: each must be an office document. */
async function officeFormats(files: ConvertForm['files']): Promise<OfficeFormat[]> {
  const formats: OfficeFormat[] = [];
  for (const f of files) {
    const format = await detectOfficeFormat(f.path);
    if (!format)
      throw new GotenbergError(
        415,
        `Unsupported file '${f.name}': its content is not a document this service converts.`,
      );
    formats.push(format);
  }
  return formats;
}

/**
 * The catalog tool whose promise a converted document is held to: its application's. Drawings, which
 * no tool takes, are held to the text documents' (every office conversion promises the same).
 */
function promiseOf(family: string): Tool {
  const id = Object.entries(toolFamilies).find(([, f]) => f === family)?.[0] ?? 'word-to-pdf';
  return findTool(id)!;
}

/** A converted document that passed its checks. */
interface Offered {
  path: string;
  name: string;
  checks: string[];
}

/** One document to PDF with the form's settings, held to its application's tool's promise. */
async function convertVerified(
  engine: OfficeEngine,
  kit: ServiceKit,
  form: ConvertForm,
  file: { path: string; name: string; format: OfficeFormat },
  job: Job,
): Promise<Offered> {
  // The workbook as a whole on each sheet's page, not from where it was last scrolled to.
  const unscrolled = join(job.workdir, `unscrolled-${randomUUID()}.xlsx`);
  const whole =
    form.exportOptions.SinglePageSheets && file.format.kind === 'xlsx'
      ? await withoutScrollPositions(file.path, unscrolled, `${unscrolled}.d`)
      : false;
  const out = await convertDocument(engine, {
    ...file,
    ...(whole ? { path: unscrolled } : {}),
    ...(form.password ? { password: form.password } : {}),
    ...(form.pageRange ? { pageRange: form.pageRange } : {}),
    landscape: form.landscape,
    exportOptions: form.exportOptions,
    ...job,
  });
  const checks = await verifyCounted(
    {
      tool: promiseOf(out.family),
      inputs: file.format.kind ? [{ path: file.path, kind: file.format.kind }] : [],
      options: {},
      result: { path: out.path, kind: 'pdf' },
      job,
    },
    route,
    kit,
  );
  return { path: out.path, name: `${file.name}.pdf`, checks };
}

/** What the route answers with, and what was checked of it. */
interface Answer {
  path: string;
  type: string;
  ext: string;
  files: number;
  checks: string[];
  /** Set only for a single PDF whose name Gotenberg keeps (a split part): else the answer is named by the header, or a random name. */
  name?: string;
}

/**
 * The answer: the documents merged in order when asked (the merge verified in its turn), then what
 * Gotenberg does after (split, rotate, flatten, metadata, embedded files, encryption), each result of
 * that verified against the PDF it came from; one PDF, or a zip of them.
 */
async function assemble(made: Offered[], form: ConvertForm, job: Job, kit: ServiceKit): Promise<Answer> {
  let documents = made;
  if (form.merge && made.length > 1) {
    const path = join(job.workdir, 'merged.pdf');
    await qpdf(['--empty', '--pages', ...made.map((o) => o.path), '--', path], job);
    // Held to the catalog's merge promise: every page of every document in order, text and pixels kept.
    const checks = await verifyCounted(
      {
        tool: findTool('pdf-merge')!,
        inputs: made.map((o) => ({ path: o.path, kind: 'pdf' as const })),
        options: {},
        result: { path, kind: 'pdf' },
        job,
      },
      route,
      kit,
    );
    documents = [{ path, name: 'merged.pdf', checks }];
  }
  let outputs: (Output & { checks: string[] })[] = documents.map((d) => ({ ...d, source: d.path }));
  if (postProcessing(form) || form.pdfa) {
    const done = await postProcess(
      outputs.map(({ path, name, source }) => ({ path, name, source })),
      form,
      job,
    );
    outputs = [];
    for (const o of done) outputs.push({ ...o, checks: await verifyOutput(o, form, job, kit) });
  }
  // `files` counts the documents converted, whatever the merge or a split made of them.
  const pdf = { type: 'application/pdf', ext: '.pdf', files: made.length };
  if (outputs.length === 1) {
    const [only] = outputs;
    return { ...pdf, path: only!.path, checks: only!.checks, ...(form.split ? { name: only!.name } : {}) };
  }
  const path = join(job.workdir, 'result.zip');
  await zipFiles(outputs, path);
  // Every document in it passed the same checks; the zip only gathers them.
  return { ...pdf, path, type: 'application/zip', ext: '.zip', checks: outputs[0]!.checks };
}

/** One output held to what it promises of the PDF it came from (see outputPromise). */
async function verifyOutput(o: Output, form: ConvertForm, job: Job, kit: ServiceKit): Promise<string[]> {
  const { checks, options } = outputPromise(o, form, await pageCount(o.source, job));
  return verifyCounted(
    {
      tool: { ...findTool('pdf-split')!, checks },
      inputs: [{ path: o.source, kind: 'pdf' }],
      options,
      result: { path: o.path, kind: 'pdf' },
      job,
    },
    route,
    kit,
  );
}

/** Gotenberg's answer: the file as an attachment, and, as the kit's routes say it, what was checked. */
async function send(req: Request, res: Response, answer: Answer): Promise<void> {
  const { size } = await stat(answer.path);
  res
    .status(200)
    .type(answer.type)
    .attachment(
      outputFilename(req) ? `${outputFilename(req)}${answer.ext}` : (answer.name ?? `${randomUUID()}${answer.ext}`),
    )
    .setHeader('Content-Length', String(size))
    .setHeader('X-Quire-Properties', propertiesHeader({ bytes: size, files: answer.files, checks: answer.checks }));
  // Sent once the response closes: a client that has every byte may close before the last write is
  // acknowledged, which a pipeline would report as a premature close, and so as a failure.
  await new Promise<void>((resolve, reject) => {
    const stream = createReadStream(answer.path);
    stream.on('error', reject);
    res.on('close', resolve);
    stream.pipe(res);
  });
}

/** The trace id: the client's Gotenberg-Trace, else our request id (the two are the same id). */
function traceOf(req: Request, res: Response): string {
  return req.get('gotenberg-trace') || (res.locals.requestId as string | undefined) || randomUUID();
}

/** The documents under their own names (a repeated name numbered), deflated, as Gotenberg zips them. */
async function zipFiles(files: { path: string; name: string }[], out: string): Promise<void> {
  const zip = createZip(out, { compress: true });
  const used = new Set<string>();
  for (const f of files) {
    let name = f.name;
    for (let n = 2; used.has(name); n++) name = `${f.name.slice(0, -4)}-${n}.pdf`;
    used.add(name);
    zip.add(f.path, name);
  }
  await zip.close();
}
