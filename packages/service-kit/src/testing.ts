import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Express } from 'express';
import request from 'supertest';
import { isFileKind, fileKinds } from '@quire/catalog';

/** What a test sends a tool: files (paths, or bytes with a name), a web address, form fields. */
export interface ToolCall {
  files?: readonly (string | { name: string; data: Buffer })[];
  url?: string;
  fields?: Record<string, string>;
}

export interface ToolAnswer {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
  /** The contract error, when the call failed. */
  error?: { code: string; message: string };
  /** X-Quire-Properties: what the tool did and what was checked. */
  properties: Record<string, unknown>;
  /** X-Quire-Output-Kind and the decoded X-Quire-Output-Name (200 only). */
  kind?: string;
  name?: string;
  /** The result written to a file (200 only, with `saveIn`). */
  file?: string;
  ms: number;
  /**
   * CPU time this process spent during the call (the upload, the tool's work in this process, the
   * answer; not the child processes that check the result). Unlike time on the clock, it does not grow
   * when other work keeps the machine busy.
   */
  cpuMs: number;
}

let saved = 0;

/**
 * Calls a tool of a service's app in-process, as the gateway does (`POST /tools/<id>`, multipart), and
 * reads the answer whole. With `saveIn`, a result is also written to a file in that folder, named by
 * its kind's extension.
 */
export async function callTool(app: Express, tool: string, call: ToolCall = {}, saveIn?: string): Promise<ToolAnswer> {
  const start = Date.now();
  const cpu = process.cpuUsage();
  let req = request(app).post(`/tools/${tool}`);
  for (const f of call.files ?? [])
    req = typeof f === 'string' ? req.attach('file', f) : req.attach('file', f.data, f.name);
  if (call.url !== undefined) req = req.field('url', call.url);
  for (const [k, v] of Object.entries(call.fields ?? {})) req = req.field(k, v);
  const res = await req.buffer(true).parse((r, done) => {
    const chunks: Buffer[] = [];
    r.on('data', (d: Buffer) => chunks.push(d));
    r.on('end', () => done(null, Buffer.concat(chunks)));
  });
  const body = res.body as Buffer;
  const headers = res.headers as Record<string, string>;
  const properties = headers['x-quire-properties']
    ? (JSON.parse(headers['x-quire-properties']) as Record<string, unknown>)
    : {};
  const used = process.cpuUsage(cpu);
  const answer: ToolAnswer = {
    status: res.status,
    headers,
    body,
    properties,
    ms: Date.now() - start,
    cpuMs: (used.user + used.system) / 1000,
  };
  if (res.status !== 200) {
    try {
      answer.error = (JSON.parse(body.toString('utf8')) as { error: ToolAnswer['error'] }).error;
    } catch {
      // Not the contract's JSON: the test sees the status and the body.
    }
    return answer;
  }
  const kind = headers['x-quire-output-kind'];
  answer.kind = kind;
  if (headers['x-quire-output-name']) answer.name = decodeURIComponent(headers['x-quire-output-name']);
  if (saveIn) {
    answer.file = join(saveIn, `out-${++saved}.${kind && isFileKind(kind) ? fileKinds[kind].ext : 'bin'}`);
    writeFileSync(answer.file, body);
  }
  return answer;
}
