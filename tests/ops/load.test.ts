/**
 * Fifty clients at once from one address, for a minute, through nginx: a mix of PDF, image and office
 * jobs on small corpus files. Every answer is either a result that downloads as the right PDF, or a
 * 429 (the services' queues full, or this client over its rate limit) with a Retry-After and the
 * contract's error; nothing else. Usage counts rise by exactly the successful runs of each tool.
 */
import { rm } from 'node:fs/promises';
import { dirname } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorCodes } from '@quire/catalog';
import { corpusFiles } from '../lib/corpus.ts';
import { download, post, type CallResult } from '../lib/http.ts';
import { pageCount, qpdfCheck } from '../lib/pdf.ts';
import { startScratchStack, type ScratchStack } from '../lib/stack.ts';

const workers = 50;
const runMs = 60_000;
/** A bound on the calls, whatever the machine's speed: above what a minute of 429s allows (100 a second). */
const maxCalls = 8000;
/** Within a minute the clients call far more often than this: the limit is reached. */
const rateLimit = 600;
/** Each service runs two jobs and queues four: fifty clients overflow every queue. */
const queue = { QUEUE_CONCURRENCY: '2', QUEUE_MAX_WAITING: '4' };
/** A client that is told to wait retries a little later, rather than at once. */
const pauseAfter429Ms = 500;
/** Results checked with qpdf, per tool; every result is downloaded. */
const checkedPerTool = 6;

const corpus = new Map(corpusFiles().map((f) => [f.file, f]));
const file = (name: string) => {
  const f = corpus.get(name);
  if (!f) throw new Error(`${name} is not in the corpus`);
  return f;
};
const pages = (name: string) => file(name).pages!;

interface Job {
  tool: string;
  files: string[];
  fields?: Record<string, string>;
  /** The result's page count. */
  pages: number;
}

const jobs: Job[] = [
  {
    tool: 'rotate-pdf',
    files: [file('pdf/qpdf-11-pages.pdf').path],
    fields: { angle: '90' },
    pages: pages('pdf/qpdf-11-pages.pdf'),
  },
  {
    tool: 'pdf-merge',
    files: [file('pdf/pypdf-pdflatex-4-pages.pdf').path, file('pdf/pdfminer-simple1.pdf').path],
    pages: pages('pdf/pypdf-pdflatex-4-pages.pdf') + pages('pdf/pdfminer-simple1.pdf'),
  },
  {
    tool: 'pdf-compress',
    files: [file('pdf/pypdf-pdflatex-4-pages.pdf').path],
    pages: pages('pdf/pypdf-pdflatex-4-pages.pdf'),
  },
  // One page per image.
  {
    tool: 'jpg-to-pdf',
    files: [file('images/pillow-hopper.jpg').path, file('images/pillow-hopper.jpg').path],
    pages: 2,
  },
  // MANIFEST: "12-page docx".
  { tool: 'word-to-pdf', files: [file('office/gotenberg-pages_12.docx').path], pages: 12 },
];

interface Outcome {
  job: Job;
  status: number;
  headers?: Headers;
  body?: CallResult['body'];
  /** A call that did not end in a JSON answer. */
  failure?: string;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('fifty clients for a minute', () => {
  let stack: ScratchStack;
  let downloads: string | undefined;

  beforeAll(async () => {
    stack = await startScratchStack('load', {
      portOffset: 23_000,
      services: ['pdf-editor', 'image', 'office'],
      authEmulator: false,
      env: { RATE_LIMIT_PER_MINUTE: String(rateLimit), ...queue, LOG_LEVEL: 'warn' },
    });
  });

  afterAll(async () => {
    await stack?.remove();
    if (downloads) await rm(downloads, { recursive: true, force: true });
  });

  async function usage(): Promise<Record<string, number>> {
    const res = await fetch(`${stack.url}/api/v1/usage`);
    expect(res.status).toBe(200);
    return ((await res.json()) as { stats: Record<string, number> }).stats;
  }

  it('answers each call with a result or a 429 with Retry-After, and counts each result once', async () => {
    const before = await usage();
    const outcomes: Outcome[] = [];
    const end = Date.now() + runMs;
    let calls = 0;
    const worker = async () => {
      while (Date.now() < end && calls < maxCalls) {
        const job = jobs[calls++ % jobs.length]!;
        try {
          const r = await post(`${stack.url}/api/v1/tools/${job.tool}`, job.files, job.fields ?? {});
          outcomes.push({ job, ...r });
          if (r.status === 429) await sleep(pauseAfter429Ms);
        } catch (err) {
          outcomes.push({ job, status: 0, failure: err instanceof Error ? err.message : String(err) });
        }
      }
    };
    await Promise.all(Array.from({ length: workers }, worker));

    const ok = outcomes.filter((o) => o.status === 200);
    const refused = outcomes.filter((o) => o.status === 429);
    const count = (list: Outcome[], pick: (o: Outcome) => string) =>
      list.reduce<Record<string, number>>((acc, o) => ({ ...acc, [pick(o)]: (acc[pick(o)] ?? 0) + 1 }), {});
    const byCode = count(refused, (o) => o.body?.error?.code ?? '');
    const okByTool = count(ok, (o) => o.job.tool);
    console.log(
      `load: ${outcomes.length} calls by ${workers} clients; 200: ${ok.length} (${jobs
        .map((j) => `${j.tool} ${okByTool[j.tool] ?? 0}`)
        .join(', ')}); 429 rate_limited: ${byCode.rate_limited ?? 0}, 429 busy: ${byCode.busy ?? 0}; other: ${
        outcomes.length - ok.length - refused.length
      }`,
    );

    // Nothing but results and 429s.
    const others = outcomes.filter((o) => o.status !== 200 && o.status !== 429);
    expect(others.map((o) => `${o.job.tool}: ${o.status} ${o.failure ?? JSON.stringify(o.body)}`)).toEqual([]);
    for (const o of ok) expect(o.body?.download, o.job.tool).toMatch(/^[0-9a-f]{32}-.+\.pdf$/);
    for (const o of refused) {
      const code = o.body?.error?.code;
      expect(['rate_limited', 'busy'], o.job.tool).toContain(code);
      expect(errorCodes[code as 'busy' | 'rate_limited'].status).toBe(429);
      expect(Object.keys(o.body!)).toEqual(['error']);
      expect(o.body!.error!.message).toMatch(/^[^\n]{10,300}$/);
      expect(o.headers!.get('retry-after'), `${o.job.tool} ${code}`).toMatch(/^[1-9]\d*$/);
    }
    // The settings above make both kinds of refusal happen, and every tool still gets through.
    expect(byCode.rate_limited ?? 0).toBeGreaterThan(0);
    expect(byCode.busy ?? 0).toBeGreaterThan(0);
    for (const { tool } of jobs) expect(okByTool[tool] ?? 0, tool).toBeGreaterThan(0);

    // Usage rose by exactly the results of each tool: a refused call is never counted.
    const after = await usage();
    for (const { tool } of jobs) expect(after[tool]! - before[tool]!, tool).toBe(okByTool[tool] ?? 0);

    // Every result downloads through nginx; some of each tool's are checked as PDFs of the right length.
    const checked: Record<string, number> = {};
    for (const o of ok) {
      const { path, res } = await download(stack.url, o.body!.download!);
      downloads = dirname(path);
      expect(res.headers.get('content-type'), o.job.tool).toMatch(/^application\/pdf/);
      if ((checked[o.job.tool] ?? 0) >= checkedPerTool) continue;
      checked[o.job.tool] = (checked[o.job.tool] ?? 0) + 1;
      expect([0, 3], o.job.tool).toContain(qpdfCheck(path));
      expect(pageCount(path), o.job.tool).toBe(o.job.pages);
    }
    expect(Object.values(checked).reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(jobs.length);
  });
});
