import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import type { Response } from 'express';
import { fileKinds, outputKind, type FileKind, type Tool } from '@quire/catalog';
import { resultName, type ToolError } from '@quire/base';
import { propertiesHeader, verdictText, verdictTrailer, type Passed } from '@quire/http';

/** A result made: its file, what it is, what the tool says of it, and the call's time so far (ms). */
export interface Made {
  path: string;
  kind?: FileKind;
  name?: string;
  properties?: Record<string, unknown>;
  timing: Record<string, number>;
}

/**
 * The answer's headers for a result: its type, kind and readable name, its properties (its size in
 * them), and where the call's time went (the upload read and checked, the inputs opened, the tool's
 * own work, its check once known: benchmarks read them).
 */
async function resultHeaders(
  tool: Tool,
  options: Record<string, unknown>,
  inputName: string | undefined,
  made: Made,
): Promise<{ headers: Record<string, string>; size: number }> {
  const kind = made.kind ?? outputKind(tool, options);
  const { size } = await stat(made.path);
  const name = made.name ?? resultName(inputName, kind);
  const timing = Object.entries(made.timing).map(([part, ms]) => `${part};dur=${ms.toFixed(1)}`);
  const headers = {
    'Content-Type': fileKinds[kind].mime,
    'X-Quire-Output-Kind': kind,
    'X-Quire-Output-Name': encodeURIComponent(name),
    'X-Quire-Properties': propertiesHeader({ bytes: size, ...made.properties }),
    'Server-Timing': timing.join(', '),
  };
  return { headers, size };
}

/** Sends a checked result whole. */
export async function sendResult(
  res: Response,
  tool: Tool,
  options: Record<string, unknown>,
  inputName: string | undefined,
  made: Made,
): Promise<void> {
  const { headers, size } = await resultHeaders(tool, options, inputName, made);
  res.status(200).set({ ...headers, 'Content-Length': String(size) });
  await new Promise<void>((resolve, reject) => {
    const stream = createReadStream(made.path);
    stream.on('error', reject);
    res.on('close', resolve);
    stream.pipe(res);
  });
}

/**
 * A result sent as soon as it is made, while its check runs (see verdictTrailer): the bytes now, the
 * verdict in the trailer once the check has ended. Nothing of it is sent until `start`; an error that
 * comes after (the check failing, the time running out) ends it as its verdict (see errorHandler).
 */
export class EarlyAnswer {
  private sending?: Promise<void>;

  constructor(private readonly res: Response) {
    res.locals.endWith = (error: ToolError) => void this.end(error);
  }

  get started(): boolean {
    return this.sending !== undefined;
  }

  /** Sends the result's headers and bytes; its verdict follows by `end`. */
  async start(tool: Tool, options: Record<string, unknown>, inputName: string | undefined, made: Made) {
    const { headers } = await resultHeaders(tool, options, inputName, made);
    this.res.status(200).set({ ...headers, Trailer: verdictTrailer });
    this.sending = new Promise<void>((resolve, reject) => {
      const stream = createReadStream(made.path);
      // A caller gone halfway leaves the file unread: it is closed, not left open waiting.
      const gone = () => {
        stream.destroy();
        reject(new Error('the caller went away'));
      };
      this.res.once('close', gone);
      stream.on('error', reject);
      stream.on('end', () => {
        this.res.off('close', gone);
        resolve();
      });
      stream.pipe(this.res, { end: false });
    });
    this.sending.catch(() => undefined);
  }

  /** Ends the answer once its bytes are sent, with the verdict; an answer whose bytes failed is cut off. */
  async end(verdict: Passed | ToolError): Promise<void> {
    try {
      await this.sending;
    } catch {
      this.res.destroy();
      return;
    }
    if (this.res.writableEnded || this.res.destroyed) return;
    this.res.addTrailers({ [verdictTrailer]: verdictText(verdict) });
    this.res.end();
  }
}
