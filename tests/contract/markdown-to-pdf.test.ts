import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { post, runTool } from '../lib/http.ts';
import { pageCount, qpdfCheck, text } from '../lib/pdf.ts';

const dir = mkdtempSync(join(tmpdir(), 'contract-markdown-'));
const file = (name: string, data: string | Buffer) => {
  writeFileSync(join(dir, name), data);
  return join(dir, name);
};

let base: string;
beforeAll(() => {
  base = inject('baseUrl');
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('markdown-to-pdf', () => {
  it('prints headings, lists, tables and code through nginx and the gateway, running no script', async () => {
    const md = [
      '# Release notes',
      '- Faster uploads\n- Fewer clicks',
      '| Plan | Price |\n| --- | --- |\n| Free | 0 |',
      '```\nnpm run build\n```',
      '<script>document.body.append("script ran")</script>',
    ].join('\n\n');
    const { path, res } = await runTool(base, 'markdown-to-pdf', [file('notes.md', md)]);
    expect(res.headers.get('content-type')).toBe('application/pdf');
    expect(qpdfCheck(path)).toBe(0);
    expect(pageCount(path)).toBe(1);
    const got = text(path).replace(/\s+/g, ' ');
    for (const phrase of ['Release notes', 'Faster uploads', 'Plan Price', 'Free 0', 'npm run build'])
      expect(got).toContain(phrase);
    expect(got).not.toContain('script ran');
    expect(got).not.toContain('# Release');
  });

  it('refuses a binary file as not Markdown', async () => {
    const r = await post(`${base}/api/v1/tools/markdown-to-pdf`, [
      file('image.md', Buffer.from([0x89, 0, 1, 2, 0xff])),
    ]);
    expect(r.status).toBe(415);
    expect(r.body.error?.code).toBe('unsupported_type');
  });
});
