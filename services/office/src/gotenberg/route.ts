import { randomUUID } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import type express from 'express';
import type { Request, Response } from 'express';
import { findTool, type Tool } from '@quire/catalog';
import { trackRequest, type Job } from '@quire/base';
import { detectOfficeFormat, type OfficeFormat } from '@quire/detect';
import { createZip, qpdf, verifyCounted } from '@quire/pdf';
import { propertiesHeader, runJob, uploadMiddleware, workdirMiddleware } from '@quire/http';
import type { ServiceKit } from '@quire/service-kit';
import { convertDocument } from '../convert.ts';
import type { OfficeEngine } from '../engine/engine.ts';
import { toolFamilies } from '../to-pdf.ts';
import { GotenbergError, notMultipart, sendError, toGotenbergError, uploadError } from './errors.ts';
import { outputFilename, readConvertForm, type ConvertForm } from './form.ts';

/**
 * Gotenberg 8's LibreOffice route, so that Gotenberg clients talk to this service, and an operator
 * can put the official gotenberg/gotenberg:8 image in its place by changing one URL. Same form
 * fields, same status codes, plain-text errors, same headers. It runs on the kit's pipeline, as the
 * catalog tools do: the work folder, the upload, the queue, the deadline, the abort when the client
 * goes away, and every result verified. Two differences from Gotenberg, both on the safe side:
 * documents are judged by content, not by their names' extensions (a file that is not an office
 * document is a 415), and `downloadFrom` and webhooks are ignored (this service never fetches anything).
 */
export function libreOfficeRoute(app: express.Express, kit: ServiceKit, engine: OfficeEngine): void {
  const upload = uploadMiddleware(['files']);
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
      try {
        const form = readConvertForm(req);
        pageRange = form.pageRange;
        const formats = await officeFormats(form.files);
        // Every document is converted and verified, and so is the merge, inside the queue slot and the time limit.
        const answer = await runJob(res, res.locals.workdir as string, kit, async (job) => {
          const made: Offered[] = [];
          for (const [i, file] of form.files.entries()) {
            made.push(await convertVerified(engine, kit, form, { ...file, format: formats[i]! }, job));
          }
          return assemble(made, form.merge, job, kit);
        });
        await send(req, res, answer);
        finish('ok');
      } catch (err) {
        const error = toGotenbergError(err, pageRange);
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
  const out = await convertDocument(engine, {
    ...file,
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
}

/** The one PDF, the documents merged in order (the merge verified in its turn), or a zip of them. */
async function assemble(made: Offered[], merge: boolean, job: Job, kit: ServiceKit): Promise<Answer> {
  const pdf = { type: 'application/pdf', ext: '.pdf', files: made.length };
  if (made.length === 1) return { ...pdf, path: made[0]!.path, checks: made[0]!.checks };
  if (merge) {
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
    return { ...pdf, path, checks };
  }
  const path = join(job.workdir, 'result.zip');
  await zipFiles(made, path);
  // Every document in it passed the same checks; the zip only gathers them.
  return { path, type: 'application/zip', ext: '.zip', files: made.length, checks: made[0]!.checks };
}

/** Gotenberg's answer: the file as an attachment, and, as the kit's routes say it, what was checked. */
async function send(req: Request, res: Response, answer: Answer): Promise<void> {
  const { size } = await stat(answer.path);
  res
    .status(200)
    .type(answer.type)
    .attachment(`${outputFilename(req) ?? randomUUID()}${answer.ext}`)
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
