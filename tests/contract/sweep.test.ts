import { join } from 'node:path';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { toolsOf } from '@quire/catalog';
import { corpusDir, corpusFolder } from '../lib/corpus.ts';
import { download, post } from '../lib/http.ts';
import { isEncrypted, qpdfCheck } from '../lib/pdf.ts';

let base: string;
beforeAll(() => {
  base = inject('baseUrl');
});

const editorTools = toolsOf('pdf-editor').map((t) => t.id);
/** Options that every file can take, so that only the file decides the outcome. */
const fieldsFor: Record<string, Record<string, string>> = { 'pdf-page-remove': { pages: '1' } };

async function through(tool: string, file: string, password?: string) {
  const files = tool === 'pdf-merge' ? [file, file] : [file];
  const fields = { ...fieldsFor[tool], ...(password !== undefined ? { password } : {}) };
  return post(`${base}/api.php?tool=${tool}`, files, fields);
}

/** Runs jobs two at a time: as many as the machine has cores. */
async function pool<T>(items: T[], fn: (item: T) => Promise<void>): Promise<void> {
  const queue = [...items];
  await Promise.all(
    [0, 1].map(async () => {
      for (let item = queue.shift(); item !== undefined; item = queue.shift()) await fn(item);
    }),
  );
}

describe('every damaged file through every editor tool', () => {
  const broken = corpusFolder('pdf-broken');

  it('answers with a file that opens or a clear 4xx, never a 5xx', async () => {
    expect(broken.length).toBeGreaterThanOrEqual(19);
    const outcomes: string[] = [];
    await pool(
      broken.flatMap((f) => editorTools.map((tool) => ({ f, tool }))),
      async ({ f, tool }) => {
        const r = await through(tool, f.path);
        const where = `${tool} on ${f.file}`;
        expect(r.status, `${where}: ${JSON.stringify(r.body)}`).toBeLessThan(500);
        if (r.status === 200) {
          const { path } = await download(base, r.body.download!);
          if (!path.endsWith('.zip')) expect([0, 3], where).toContain(qpdfCheck(path));
          outcomes.push('ok');
        } else {
          expect(['unsupported_type', 'damaged_input', 'invalid_option'], where).toContain(r.body.error?.code);
          expect(r.body.error?.message).toMatch(/^[A-Z"].*\.$/);
          outcomes.push(r.body.error!.code);
        }
      },
    );
    // Files that are not PDFs at all are refused by content; the repairable ones give results.
    expect(outcomes).toContain('unsupported_type');
    expect(outcomes).toContain('ok');
    const notPdf = await through('pdf-compress', join(corpusDir, 'pdf-broken/renamed-html-as.pdf'));
    expect(notPdf.status).toBe(415);
    const repaired = await through('pdf-compress', join(corpusDir, 'pdf-broken/qpdf-leading-junk.pdf'));
    expect(repaired.status).toBe(200);
  });

  it('calls an unreadable PDF damaged_input', async () => {
    const r = await through('rotate-pdf', join(corpusDir, 'pdf-broken/qpdf-pages-loop.pdf'));
    const r2 = await through('rotate-pdf', join(corpusDir, 'pdf-broken/pdfjs-scan-bad-truncated.pdf'));
    expect([r.body.error?.code, r2.body.error?.code]).toContain('damaged_input');
    for (const res of [r, r2]) if (res.status !== 200) expect(res.status).toBe(422);
  });
});

describe('every encrypted file through every editor tool', () => {
  const encrypted = corpusFolder('pdf-encrypted');

  it('opens with the right password, asks for it when missing, refuses a wrong one', async () => {
    expect(encrypted.length).toBeGreaterThanOrEqual(20);
    await pool(
      encrypted.flatMap((f) => editorTools.map((tool) => ({ f, tool }))),
      async ({ f, tool }) => {
        const where = `${tool} on ${f.file}`;
        const password = f.userPassword ?? f.ownerPassword;
        const opensBare = f.userPassword === '' || /owner password only/.test(f.special);
        const bare = await through(tool, f.path);
        expect(bare.status, `${where}: ${JSON.stringify(bare.body)}`).toBeLessThan(500);
        // Removing page 1 of a one-page file is refused as it should be: the file was opened to know that.
        const onlyPage = tool === 'pdf-page-remove' && f.pages === 1;
        if (opensBare)
          expect(onlyPage ? bare.body.error?.code : bare.status, where).toBe(onlyPage ? 'invalid_option' : 200);
        else expect(bare.body.error?.code, where).toBe('password_required');
        if (password !== undefined && password !== '') {
          const ok = await through(tool, f.path, password);
          if (onlyPage) {
            expect(ok.body.error?.code, where).toBe('invalid_option');
            return;
          }
          expect(ok.status, `${where}: ${JSON.stringify(ok.body)}`).toBe(200);
          const { path } = await download(base, ok.body.download!);
          if (!path.endsWith('.zip')) {
            expect([0, 3], where).toContain(qpdfCheck(path));
            expect(isEncrypted(path), where).toBe(false);
          }
        }
        if (!opensBare) {
          const wrong = await through(tool, f.path, 'not-the-password');
          expect(wrong.body.error?.code, where).toBe('wrong_password');
        }
      },
    );
  });
});
