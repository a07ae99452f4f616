import { join } from 'node:path';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { corpusDir } from '../lib/corpus.ts';
import { download, post, runTool } from '../lib/http.ts';
import { info, pageCount, text } from '../lib/pdf.ts';

const writer = join(corpusDir, 'pdf', 'pypdf-libreoffice-writer.pdf');

let base: string;
beforeAll(() => {
  base = inject('baseUrl');
});

describe('redact-pdf', () => {
  it('removes the words and the boxed area through nginx and the gateway, keeping the rest', async () => {
    const before = text(writer);
    expect(before).toMatch(/takimata/);
    // The page's top 70 pt hold its first line (59 to 70 pt down), and touch the tops of the second's letters.
    const boxes = JSON.stringify([{ page: 1, x: 0, y: 0, width: 1, height: 70.5 / 841.89 }]);
    const { path, res, properties } = await runTool(base, 'redact-pdf', [writer], { terms: 'takimata', boxes });
    expect(res.headers.get('content-type')).toBe('application/pdf');
    const after = text(path);
    expect(after).not.toMatch(/takimata/i);
    expect(after).not.toMatch(/consetetur sadipscing elitr, sed diam nonumy eirmod tempor\s+invidunt/);
    expect(after).toMatch(/^\s*et justo duo dolores et ea rebum\. Stet clita kasd gubergren/);
    expect(pageCount(path)).toBe(pageCount(writer));
    expect(properties).toMatchObject({ boxes: 1, metadataCleaned: true });
    expect(info(writer).Producer).toMatch(/LibreOffice/);
    expect(info(path).Producer).toBeUndefined();
    expect(properties.terms).toBe((before.match(/takimata/g) ?? []).length);
  });

  it('answers a bad option or a runaway pattern with a 400 and its code', async () => {
    const bad = await post(`${base}/api.php?tool=redact-pdf`, [writer], { boxes: '[{"page": "one"}]' });
    expect(bad.status).toBe(400);
    expect(bad.body.error?.code).toBe('invalid_option');
    const none = await post(`${base}/api.php?tool=redact-pdf`, [writer]);
    expect(none.status).toBe(400);
    expect(none.body.error?.code).toBe('invalid_option');
    const slow = await post(`${base}/api.php?tool=redact-pdf`, [writer], { regex: '(\\w+\\s?)+\\d$' });
    expect(slow.status).toBe(400);
    expect(slow.body.error?.code).toBe('regex_too_slow');
  });

  it('runs in a saved workflow, then compressed', async () => {
    const saved = await fetch(`${base}/api/v1/workflows/saved`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        name: 'Redact and compress',
        steps: [{ tool: 'redact-pdf', options: { terms: 'Lorem' } }, { tool: 'pdf-compress' }],
      }),
    });
    expect(saved.status).toBe(201);
    const { id } = (await saved.json()) as { id: string };
    const r = await post(`${base}/api/v1/workflows?saved=${id}`, [writer]);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const { path } = await download(base, r.body.download!);
    expect(text(path)).not.toMatch(/lorem/i);
    expect(text(path)).toMatch(/ipsum dolor sit amet/);
  });
});
