import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import busboy from 'busboy';
import type { Request } from 'express';
import { ToolError, safeName, toToolError } from '@quire/base';
import { formLimits, formReading } from '@quire/http';

/**
 * A tool call's multipart body passed on to its service as it arrives, never written down: the files
 * (field `file`) and, of the other fields, those the tool takes (the first value of each, when not
 * empty), under a boundary of ours. It is read under the same bounds, and refused with the same errors,
 * as an upload a service reads (`uploadMiddleware`), so a client gets the same answer either way.
 */
export interface RelayedForm {
  readonly contentType: string;
  /** True once the first file begins, false when the body ended without one; rejects when the upload fails. */
  readonly started: Promise<boolean>;
  /** The body to send on, its parts in the order they came. Read it once. */
  readonly body: Readable;
  /** The files' names passed on so far, cleaned (`safeName`), in order. */
  readonly files: readonly string[];
  /** The fields passed on so far. */
  readonly fields: Readonly<Record<string, string>>;
  /** Why the upload failed on the client's side (a bound, a broken form, the client gone), once it has. */
  readonly failed: ToolError | undefined;
  /** Fails the upload with this reason (the job's end) unless it has ended already. */
  cancel(reason: unknown): void;
  /** Stops reading the body; resolves once the client has sent the rest (discarded) or gone. */
  stop(): Promise<void>;
}

type FileStream = Readable & { truncated?: boolean };
type Part = { name: string; value: string } | { filename: string; stream: FileStream };

/** multer's name for a broken bound, which toToolError turns into the contract's error as for any upload. */
class FormError extends Error {
  constructor(readonly code: string) {
    super(`multipart form: ${code}`);
  }
}

/** Reads `req` as a form for one tool: `allowed` are the fields it takes, `fileSize` the bound of each file. */
export function relayForm(req: Request, allowed: ReadonlySet<string>, fileSize: number): RelayedForm {
  const boundary = `quire-${randomBytes(16).toString('hex')}`;
  const parts: Part[] = [];
  const files: string[] = [];
  const fields: Record<string, string> = {};
  const seen = new Set<string>();
  let ended = false;
  let failed: ToolError | undefined;
  let current: FileStream | undefined;
  let wake: (() => void) | undefined;
  let draining: Promise<void> | undefined;
  let bb: busboy.Busboy | undefined;

  let begin!: (file: boolean) => void;
  let refuse!: (err: ToolError) => void;
  const started = new Promise<boolean>((resolve, reject) => ((begin = resolve), (refuse = reject)));
  // Awaited by the job, or not at all when the call fails before it.
  started.catch(() => {});

  const notify = () => {
    const w = wake;
    wake = undefined;
    w?.();
  };
  const stop = () => {
    if (!draining) {
      if (bb) {
        const parser = bb;
        req.unpipe(parser);
        // Not at once: this may run inside one of busboy's own events, which it goes on from.
        setImmediate(() => {
          parser.removeAllListeners();
          parser.on('error', () => {});
        });
      }
      draining = drained(req);
    }
    return draining;
  };
  const fail = (err: unknown) => {
    if (failed || ended) return;
    failed = err instanceof ToolError ? err : toToolError(err);
    current?.destroy(failed);
    for (const part of parts) if ('stream' in part) part.stream.resume();
    void stop();
    refuse(failed);
    notify();
  };
  const end = () => {
    ended = true;
    begin(false);
    notify();
  };

  // As multer: a body that is not a form holds no files.
  if (!req.is('multipart')) end();
  else {
    try {
      bb = busboy({
        headers: req.headers,
        // One past each bound, as multer does, so that a value exactly at the bound passes.
        limits: {
          fileSize: fileSize + 1,
          files: formLimits.files,
          fields: formLimits.fields,
          fieldSize: formLimits.fieldSize + 1,
        },
        // Browsers send UTF-8 file names.
        defParamCharset: 'utf8',
        ...formReading,
      });
    } catch (err) {
      fail(err);
    }
  }
  if (bb) {
    bb.on('field', (raw: string | undefined, value, info) => {
      if (failed) return;
      if (typeof raw !== 'string') return fail(new FormError('MISSING_FIELD_NAME'));
      if (info.nameTruncated) return fail(new FormError('LIMIT_FIELD_KEY'));
      if (info.valueTruncated) return fail(new FormError('LIMIT_FIELD_VALUE'));
      const name = unescapeName(raw);
      // The first value counts, and an empty one is no value.
      if (seen.has(name)) return;
      seen.add(name);
      if (allowed.has(name) && value !== '') {
        fields[name] = value;
        parts.push({ name, value });
        notify();
      }
    });
    bb.on('file', (raw: string | undefined, stream: FileStream, info) => {
      // Also for a part left out: busboy destroys the part it is in when reading stops.
      stream.on('error', fail);
      if (failed) return void stream.resume();
      if (typeof raw !== 'string') {
        stream.resume();
        return fail(new FormError('MISSING_FIELD_NAME'));
      }
      // A part without a file name is no file (multer leaves it out too).
      if (!info.filename) return void stream.resume();
      if (unescapeName(raw) !== 'file') {
        stream.resume();
        return fail(new FormError('LIMIT_UNEXPECTED_FILE'));
      }
      stream.on('limit', () => fail(new FormError('LIMIT_FILE_SIZE')));
      const filename = safeName(unescapeName(info.filename));
      files.push(filename);
      parts.push({ filename, stream });
      begin(true);
      notify();
    });
    bb.on('filesLimit', () => fail(new FormError('LIMIT_FILE_COUNT')));
    bb.on('fieldsLimit', () => fail(new FormError('LIMIT_FIELD_COUNT')));
    bb.on('error', fail);
    bb.on('close', end);
    req.on('close', () => {
      if (!req.readableEnded) fail(new ToolError('timeout', 'The request was cancelled.'));
    });
    req.pipe(bb);
  }

  async function* emit(): AsyncGenerator<Buffer> {
    let complete = false;
    try {
      for (;;) {
        if (failed) throw failed;
        const part = parts.shift();
        if (!part) {
          if (ended) break;
          await new Promise<void>((resolve) => (wake = resolve));
          continue;
        }
        if ('value' in part) {
          yield Buffer.from(
            `--${boundary}\r\nContent-Disposition: form-data; name="${part.name}"\r\n\r\n${part.value}\r\n`,
          );
          continue;
        }
        // safeName leaves letters, digits, dots, dashes and underscores: nothing to escape.
        yield Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${part.filename}"\r\n` +
            'Content-Type: application/octet-stream\r\n\r\n',
        );
        current = part.stream;
        for await (const chunk of part.stream) yield chunk as Buffer;
        current = undefined;
        // A file cut at the size bound ends before it fails.
        if (failed || part.stream.truncated) throw failed ?? toToolError(new FormError('LIMIT_FILE_SIZE'));
        yield Buffer.from('\r\n');
      }
      yield Buffer.from(`--${boundary}--\r\n`);
      complete = true;
    } finally {
      if (!complete) void stop();
    }
  }

  return {
    contentType: `multipart/form-data; boundary=${boundary}`,
    started,
    body: Readable.from(emit(), { objectMode: false }),
    files,
    fields,
    get failed() {
      return failed;
    },
    cancel: fail,
    stop,
  };
}

/** The WHATWG escapes of a form's names (`"`, CR, LF) reversed, as multer does. */
function unescapeName(name: string): string {
  return name.replace(/%0A|%0D|%22/gi, (m) => ({ '%0A': '\n', '%0D': '\r' })[m.toUpperCase()] ?? '"');
}

/** Resolves once the rest of a request's body has been read and dropped, or the request is gone. */
function drained(req: Request): Promise<void> {
  if (req.readableEnded || req.destroyed) return Promise.resolve();
  return new Promise((resolve) => {
    req.once('end', resolve);
    req.once('close', resolve);
    req.once('error', () => resolve());
    req.resume();
  });
}
