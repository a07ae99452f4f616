import { contractPreamble, runComment, type ToolTemplate } from './template.ts';

/** A pdf-editor tool: the PDF copied through qpdf, linearized when asked. */
export const pdfEditor: ToolTemplate = {
  icon: '🛠️',
  category: 'Edit',
  guideCategory: 'Edit',
  entry: `input: onePdf,
    output: 'pdf',
    checks: { pages: 'same', text: 'kept', pixels: true },
    options: z.object({ linearize: boolField(false) }),`,
  optionImports: ['boolField'],
  option: {
    name: 'linearize',
    label: 'Fast web view',
    guide: 'off by default. On, the PDF is linearized, so that a browser shows its first page before the rest arrives.',
  },
  takes: 'a PDF',
  makes: 'the new PDF',
  run: ({ id, name }) => `import type { ToolOptions } from '@quire/catalog';
import { pageCount, qpdf } from '@quire/pdf';
import type { ToolContext, ToolResult } from '@quire/service-kit';
import { openInput, workPath } from '../../pdf.ts';

${runComment(name, 'the PDF copied through qpdf, linearized for fast web view when asked')}
export async function run(ctx: ToolContext<ToolOptions<'${id}'>>): Promise<ToolResult> {
  const source = await openInput(ctx, ctx.inputs[0]!);
  const out = workPath(ctx, 'out.pdf');
  await qpdf([source, out, ...(ctx.options.linearize ? ['--linearize'] : [])], ctx);
  return { path: out, properties: { pages: await pageCount(out, ctx), linearized: ctx.options.linearize } };
}
`,
  unitTest: ({ id }) => `import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { callTool } from '@quire/service-kit/testing';
import { check, pages, pdf, scratch, useEditor } from '../../../test/helpers.ts';

const { app } = useEditor();
const source = pdf('qpdf-11-pages.pdf');

describe('${id}', () => {
  it('gives back every page in a sound PDF', async () => {
    const r = await callTool(app(), '${id}', { files: [source] }, scratch);
    expect(r.status, JSON.stringify(r.error)).toBe(200);
    expect(pages(r.file!)).toBe(pages(source));
    expect(check(r.file!)).toBe(0);
    expect(r.properties).toMatchObject({ pages: 11, linearized: false });
  });

  it('linearizes the PDF when asked', async () => {
    const r = await callTool(app(), '${id}', { files: [source], fields: { linearize: 'true' } }, scratch);
    expect(r.status, JSON.stringify(r.error)).toBe(200);
    expect(execFileSync('qpdf', ['--check-linearization', r.file!]).toString()).toContain('no linearization errors');
    expect(pages(r.file!)).toBe(pages(source));
  });
});
`,
  contractTest: ({ id }) => `import { join } from 'node:path';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { corpusDir } from '../lib/corpus.ts';
import { runTool } from '../lib/http.ts';
import { pageCount, qpdfCheck } from '../lib/pdf.ts';

const source = join(corpusDir, 'pdf', 'qpdf-11-pages.pdf');

${contractPreamble}

describe('${id}', () => {
  it('answers a sound PDF with every page, through nginx and the gateway', async () => {
    const { path, res } = await runTool(base, '${id}', [source], { linearize: 'true' });
    expect(res.headers.get('content-type')).toBe('application/pdf');
    expect(qpdfCheck(path)).toBe(0);
    expect(pageCount(path)).toBe(pageCount(source));
  });
});
`,
};
