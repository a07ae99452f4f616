import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import { dirname, join } from 'node:path';
import { MessageChannel, Worker, type MessagePort } from 'node:worker_threads';
import { envInt, ToolError } from '@quire/base';

type Pdfjs = typeof import('pdfjs-dist/legacy/build/pdf.mjs');
export type PdfDocument = Awaited<ReturnType<Pdfjs['getDocument']>['promise']>;
export type PdfPage = Awaited<ReturnType<PdfDocument['getPage']>>;

const root = dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json'));

let loading: Promise<Pdfjs> | undefined;

/**
 * pdf.js, legacy build (the one meant for Node): its main-thread side, loaded once, up front. Loaded
 * without its source map: parsed, its 2.4 MB would hold some 60 MB for the life of the service, for
 * stack traces that point into pdf.js.
 */
export function loadPdfjs(): Promise<Pdfjs> {
  loading ??= (async () => {
    const maps = process.sourceMapsEnabled;
    process.setSourceMapsEnabled(false);
    try {
      return await import('pdfjs-dist/legacy/build/pdf.mjs');
    } finally {
      process.setSourceMapsEnabled(maps);
    }
  })().then((pdfjs) => {
    idle.push(startThread(pdfjs));
    return pdfjs;
  });
  return loading;
}

/** A worker thread running pdf.js's worker code, and pdf.js's handle on it. */
interface Thread {
  thread: Worker;
  /** This side's port: it keeps the process alive only while a document is open. */
  port: MessagePort;
  worker: InstanceType<Pdfjs['PDFWorker']>;
  /** Set once it has exited, or was stopped. */
  gone: boolean;
}

/** Threads waiting for a document; at most as many as jobs run at once. */
const idle: Thread[] = [];
const maxIdle = envInt('QUEUE_CONCURRENCY', availableParallelism());

/**
 * pdf.js parses and decodes in a thread of its own, one document at a time, rather than in this one:
 * a damaged file can send one of its decoders into a loop that never yields (a JBIG2 image did), and
 * only a thread can then be stopped at the job's time limit while the service goes on answering. Its
 * JavaScript heap is bounded too: a file that fills it costs the thread, not the service.
 */
function startThread(pdfjs: Pdfjs): Thread {
  const { port1, port2 } = new MessageChannel();
  const thread = new Worker(new URL('./pdfjs-thread.mjs', import.meta.url), {
    workerData: { port: port2 },
    // Plain JavaScript: the process's TypeScript loader (see @quire/base/ts-loader) is not wanted here.
    execArgv: [],
    transferList: [port2],
    resourceLimits: { maxOldGenerationSizeMb: 512 },
  });
  // pdf.js takes any port with postMessage and addEventListener, as a MessagePort has; its types say null.
  // Its warnings about a file are no log lines of ours: errors only, as the documents are opened with.
  const worker = new pdfjs.PDFWorker({ port: port1 as never, verbosity: pdfjs.VerbosityLevel.ERRORS });
  const t: Thread = { thread, port: port1, worker, gone: false };
  thread.unref();
  port1.unref();
  thread.once('exit', () => stop(t));
  thread.on('error', () => stop(t));
  return t;
}

function stop(t: Thread): void {
  if (t.gone) return;
  t.gone = true;
  void t.thread.terminate();
  t.worker.destroy();
  t.port.close();
  const i = idle.indexOf(t);
  if (i >= 0) idle.splice(i, 1);
}

/** Largest image pdf.js decodes, in pixels; bigger ones are skipped rather than filling memory. */
const maxImagePixels = 36_000_000;

/**
 * Opens a (decrypted) PDF with pdf.js, on a thread of its own until the document is destroyed; when
 * `signal` aborts, the thread is stopped at once, whatever it is doing. A file pdf.js cannot read at
 * all is `damaged_input`.
 */
export async function openDocument(path: string, signal?: AbortSignal): Promise<PdfDocument> {
  const pdfjs = await loadPdfjs();
  const data = new Uint8Array(await readFile(path));
  let t = idle.pop();
  while (t?.gone) t = idle.pop();
  t ??= startThread(pdfjs);
  const thread = t;
  thread.port.ref();
  const abort = () => stop(thread);
  signal?.addEventListener('abort', abort, { once: true });
  const task = pdfjs.getDocument({
    data,
    worker: thread.worker,
    verbosity: 0,
    cMapUrl: join(root, 'cmaps') + '/',
    cMapPacked: true,
    standardFontDataUrl: join(root, 'standard_fonts') + '/',
    wasmUrl: join(root, 'wasm') + '/',
    isOffscreenCanvasSupported: false,
    isImageDecoderSupported: false,
    maxImageSize: maxImagePixels,
    disableFontFace: true,
    useSystemFonts: false,
    stopAtErrors: false,
  });
  /** Hands the thread on once the document is gone; a thread too busy to say so is stopped instead. */
  const done = async (destroy: () => Promise<void>) => {
    if (!thread.gone) {
      const answered = await within(destroy(), destroyGraceMs);
      if (answered) release(thread);
      else stop(thread);
    }
    signal?.removeEventListener('abort', abort);
  };
  let doc: PdfDocument;
  try {
    doc = await task.promise;
  } catch (err) {
    await done(() => task.destroy());
    const name = (err as { name?: string }).name;
    if (name === 'PasswordException') throw new ToolError('password_required', undefined, { cause: err });
    throw new ToolError('damaged_input', undefined, { cause: err });
  }
  const destroy = doc.destroy.bind(doc);
  doc.destroy = () => done(destroy);
  return doc;
}

/**
 * How long a document's thread may take to let it go. One that takes longer is still at work on it
 * (a decoder in a loop, after the job gave up on an error): left alone, it would run on for ever.
 */
const destroyGraceMs = 2000;

/** Whether a promise settles, either way, within `ms`. */
function within(promise: Promise<unknown>, ms: number): Promise<boolean> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), ms);
    const settle = () => {
      clearTimeout(timer);
      resolve(true);
    };
    promise.then(settle, settle);
  });
}

/** A thread that finished its document waits for the next, or goes when enough are waiting. */
function release(t: Thread): void {
  if (t.gone) return;
  t.port.unref();
  if (idle.length < maxIdle) idle.push(t);
  else stop(t);
}

export async function pdfjsVersion(): Promise<string> {
  return (await loadPdfjs()).version;
}
