import { join } from 'node:path';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { corpusDir } from '../lib/corpus.ts';
import { post } from '../lib/http.ts';

let base: string;
beforeAll(() => {
  base = inject('baseUrl');
});

const small = join(corpusDir, 'pdf/pypdf-minimal-document.pdf');
const stats = async () =>
  ((await (await fetch(`${base}/track_usage.php`)).json()) as { stats: Record<string, number> }).stats;

describe('usage counts', () => {
  it('go up by exactly one per successful run, also in parallel, and per workflow step', async () => {
    const before = await stats();
    const runs = await Promise.all(Array.from({ length: 12 }, () => post(`${base}/api.php?tool=rotate-pdf`, [small])));
    expect(runs.map((r) => r.status)).toEqual(Array(12).fill(200));
    const failed = await post(`${base}/api.php?tool=rotate-pdf`, [small], { angle: '45' });
    expect(failed.status).toBe(400);
    const flow = await post(`${base}/api.php?workflow=custom&steps=rotate-pdf,pdf-compress`, [small]);
    expect(flow.status, JSON.stringify(flow.body)).toBe(200);
    const after = await stats();
    expect(after['rotate-pdf']! - before['rotate-pdf']!).toBe(13);
    expect(after['pdf-compress']! - before['pdf-compress']!).toBe(1);
    const v1 = (await (await fetch(`${base}/api/v1/usage`)).json()) as { stats: Record<string, number> };
    expect(v1.stats['rotate-pdf']).toBe(after['rotate-pdf']);
  });
});

describe('workflows over HTTP', () => {
  it('passes each step result to the next and offers the last', async () => {
    const src = join(corpusDir, 'pdf/qpdf-11-pages.pdf');
    const r = await post(`${base}/api/v1/workflows?steps=pdf-merge,rotate-pdf,pdf-split`, [src, small]);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.download).toMatch(/\.zip$/);
    const bad = await post(`${base}/api.php?workflow=custom&steps=pdf-unlock,pdf-merge`, [src]);
    expect(bad.body.error?.code).toBe('invalid_workflow');
  });

  it('names the step that failed', async () => {
    const locked = join(corpusDir, 'pdf-encrypted/pdfminer-rc4-128.pdf');
    const r = await post(`${base}/api.php?workflow=custom&steps=pdf-compress,rotate-pdf`, [locked]);
    expect(r.body.error?.code).toBe('password_required');
    expect(r.body.error?.message).toMatch(/^Step 1 \(Compress PDF\)/);
    const ok = await post(`${base}/api.php?workflow=custom&steps=pdf-compress,rotate-pdf`, [locked], {
      password: 'baz',
    });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
  });
});

describe('results', () => {
  it('expire after their time and then answer 404', async () => {
    const r = await post(`${base}/api.php?tool=rotate-pdf`, [small]);
    const url = `${base}/uploads/${encodeURIComponent(r.body.download!)}`;
    expect((await fetch(url)).status).toBe(200);
    // The test stack keeps results for a short time only.
    await new Promise((resolve) => setTimeout(resolve, inject('resultTtlSeconds') * 1000 + 1500));
    const gone = await fetch(url);
    expect(gone.status).toBe(404);
    expect(((await gone.json()) as { error: { code: string } }).error.code).toBe('not_found');
  });

  it('answer 404 to traversal and guessing through nginx too', async () => {
    for (const probe of [
      '..%2F..%2Fetc%2Fpasswd',
      '%2e%2e/%2e%2e/etc/passwd',
      '../quire.db',
      'quire.db',
      '0'.repeat(32) + '-x.pdf',
    ]) {
      const res = await fetch(`${base}/uploads/${probe}`);
      expect([400, 404], probe).toContain(res.status);
      expect(await res.text()).not.toContain('root:');
    }
  });
});
