import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { corpusDir } from '../lib/corpus.ts';
import { post, runTool } from '../lib/http.ts';
import { pageCount, qpdfCheck, text } from '../lib/pdf.ts';

const source = join(corpusDir, 'pdf', 'pdfjs-tracemonkey.pdf');

/** Each page's crop box as pdfinfo reads it: [x0, y0, x1, y1]. */
function cropBoxes(path: string): number[][] {
  const out = execFileSync('pdfinfo', ['-box', '-f', '1', '-l', '100000', path]).toString();
  return [...out.matchAll(/^Page\s+\d+ CropBox:\s+(.+)$/gm)].map((m) => m[1]!.trim().split(/\s+/).map(Number));
}

let base: string;
beforeAll(() => {
  base = inject('baseUrl');
});

describe('crop-pdf', () => {
  it('sets the crop box asked for through nginx and the gateway, keeping the pages and their text', async () => {
    const { path, res } = await runTool(base, 'crop-pdf', [source], {
      mode: 'margins',
      unit: 'pt',
      top: '72',
      right: '100',
      bottom: '50',
      left: '36',
      pages: '1-2',
    });
    expect(res.headers.get('content-type')).toBe('application/pdf');
    expect(qpdfCheck(path)).toBe(0);
    expect(pageCount(path)).toBe(14);
    const boxes = cropBoxes(path);
    expect(boxes.slice(0, 3)).toEqual([
      [36, 50, 512, 720],
      [36, 50, 512, 720],
      [0, 0, 612, 792],
    ]);
    expect(text(path)).toBe(text(source));
  });

  it('trims white margins by default', async () => {
    const { path } = await runTool(base, 'crop-pdf', [source]);
    const [x0, y0, x1, y1] = cropBoxes(path)[0]!;
    expect((x1! - x0!) * (y1! - y0!)).toBeLessThan(0.9 * 612 * 792);
  });

  it('refuses margins that leave nothing, naming the fields', async () => {
    const r = await post(`${base}/api.php?tool=crop-pdf`, [source], { mode: 'margins', left: '150', right: '100' });
    expect(r.status).toBe(400);
    expect(r.body.error?.code).toBe('invalid_option');
    expect(r.body.error?.message).toMatch(/"left" and "right"/);
  });
});
