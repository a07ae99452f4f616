import { openAsBlob } from 'node:fs';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';

export interface CallResult {
  status: number;
  headers: Headers;
  body: { download?: string; properties?: Record<string, unknown>; error?: { code: string; message: string } };
}

/** Posts files and fields as a browser form would. */
export async function post(
  url: string,
  files: string[] = [],
  fields: Record<string, string> = {},
  headers: Record<string, string> = {},
): Promise<CallResult> {
  const form = new FormData();
  for (const f of files) form.append('file', await openAsBlob(f), basename(f));
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  const res = await fetch(url, { method: 'POST', body: form, headers });
  const text = await res.text();
  let body: CallResult['body'];
  try {
    body = JSON.parse(text) as CallResult['body'];
  } catch {
    throw new Error(`${url} answered ${res.status} with non-JSON: ${text.slice(0, 200)}`);
  }
  return { status: res.status, headers: res.headers, body };
}

let downloads: string | undefined;

/** Fetches a result into a temp file and returns its path with the response. */
export async function download(baseUrl: string, name: string): Promise<{ path: string; res: Response }> {
  const res = await fetch(`${baseUrl}/uploads/${encodeURIComponent(name)}`);
  if (!res.ok) throw new Error(`download ${name}: ${res.status}`);
  downloads ??= await mkdtemp(join(tmpdir(), 'quire-dl-'));
  const path = join(downloads, name);
  await writeFile(path, Buffer.from(await res.arrayBuffer()));
  return { path, res };
}

/**
 * Runs a tool through nginx and the gateway and downloads its result at once; any answer other than a
 * 200 with a download fails, naming what the server said.
 */
export async function runTool(baseUrl: string, tool: string, files: string[], fields: Record<string, string> = {}) {
  const r = await post(`${baseUrl}/api.php?tool=${tool}`, files, fields);
  if (r.status !== 200 || r.body.error || !r.body.download) {
    throw new Error(`${tool} answered ${r.status}: ${JSON.stringify(r.body)}`);
  }
  const { path, res } = await download(baseUrl, r.body.download);
  return { path, res, download: r.body.download, properties: r.body.properties ?? {} };
}
