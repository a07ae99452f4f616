/**
 * A stand-in for a service, to see what the gateway sends and to answer what no real service would
 * (an answer cut off, or one that stops halfway). It reads the form with undici's own parser, not the
 * gateway's, and answers by the service contract.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { Readable } from 'node:stream';
import { verdictTrailer } from '@quire/http';

export interface Received {
  /** The request's TE header: whether the caller takes trailers. */
  te?: string;
  files: { name: string; bytes: Buffer }[];
  /** Every value of each field, in order. */
  fields: Record<string, string[]>;
}

export interface StandInOptions {
  /** The result's bytes. */
  answer: Buffer;
  /** `cut`: the connection is closed halfway through the answer; `stall`: the answer stops halfway. */
  fault?: 'cut' | 'stall';
  /** Run once the form has been read, before the answer. */
  onRequest?: () => void | Promise<void>;
  /**
   * The answer sent ahead of its check, this verdict in its trailer (see verdictTrailer) when the caller
   * takes trailers; `null`: the trailer is announced and never sent.
   */
  verdict?: string | null;
}

export interface StandIn {
  url: string;
  received: Received[];
  close(): Promise<void>;
}

export async function standIn(opts: StandInOptions): Promise<StandIn> {
  const received: Received[] = [];
  const server: Server = createServer((req, res) => {
    void (async () => {
      received.push({ te: String(req.headers.te ?? ''), ...(await readForm(req)) });
      await opts.onRequest?.();
      const headers = {
        'Content-Type': 'application/pdf',
        'X-Quire-Output-Kind': 'pdf',
        'X-Quire-Output-Name': encodeURIComponent('résultat.pdf'),
      };
      if (opts.verdict !== undefined && req.headers.te === 'trailers') {
        res.writeHead(200, {
          ...headers,
          'X-Quire-Properties': JSON.stringify({ bytes: opts.answer.length, pages: 1 }),
          'Server-Timing': 'tool;dur=12.5',
          Trailer: verdictTrailer,
        });
        res.write(opts.answer);
        if (opts.verdict !== null) res.addTrailers({ [verdictTrailer]: opts.verdict });
        return void res.end();
      }
      res.writeHead(200, {
        ...headers,
        'Content-Length': String(opts.answer.length),
        'X-Quire-Properties': JSON.stringify({ bytes: opts.answer.length, pages: 1 }),
        'Server-Timing': 'tool;dur=12.5, verify;dur=3.0',
      });
      const half = opts.answer.subarray(0, Math.floor(opts.answer.length / 2));
      if (!opts.fault) return void res.end(opts.answer);
      res.write(half, () => {
        if (opts.fault === 'cut') setTimeout(() => res.socket?.destroy(), 50);
      });
    })().catch(() => res.socket?.destroy());
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as { port: number }).port}`,
    received,
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((r) => server.close(() => r()));
    },
  };
}

async function readForm(req: IncomingMessage): Promise<Received> {
  const init = {
    method: 'POST',
    headers: { 'content-type': req.headers['content-type'] ?? '' },
    body: Readable.toWeb(req),
    duplex: 'half',
  };
  const form = await new Request('http://stand-in/', init as RequestInit).formData();
  const got: Received = { files: [], fields: {} };
  for (const [name, value] of form) {
    if (typeof value === 'string') (got.fields[name] ??= []).push(value);
    else got.files.push({ name: value.name, bytes: Buffer.from(await value.arrayBuffer()) });
  }
  return got;
}
