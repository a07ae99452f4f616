import { contractPreamble, runComment, type ToolTemplate } from './template.ts';

/** A pdf-extract tool: the PDF's text in reading order, its lines numbered when asked. */
export const pdfExtract: ToolTemplate = {
  icon: '🔎',
  category: 'Extract',
  guideCategory: 'Extract',
  entry: `input: onePdf,
    output: 'txt',
    checks: { pages: 'none' },
    options: z.object({ lineNumbers: boolField(false) }),`,
  optionImports: ['boolField'],
  option: {
    name: 'lineNumbers',
    label: 'Number the lines',
    guide: 'off by default. On, every line of the text starts with its number.',
  },
  takes: 'a PDF',
  makes: 'a text file',
  run: ({ id, name }) => `import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ToolOptions } from '@quire/catalog';
import type { ToolContext, ToolResult } from '@quire/service-kit';
import { readInput, summary } from '../../input.ts';
import { toText } from '../../render/text.ts';

${runComment(name, "the PDF's text in reading order, each line numbered when asked")}
export async function run(ctx: ToolContext<ToolOptions<'${id}'>>): Promise<ToolResult> {
  const doc = await readInput(ctx, { images: false });
  const lines = toText(doc).split('\\n');
  const numbered = ctx.options.lineNumbers ? lines.map((line, i) => \`\${i + 1}\\t\${line}\`) : lines;
  const out = join(ctx.workdir, 'out.txt');
  await writeFile(out, numbered.join('\\n'), 'utf8');
  return { path: out, properties: summary(doc, { lines: lines.length }) };
}
`,
  unitTest: ({ id }) => `import { describe, expect, it } from 'vitest';
import { callTool } from '@quire/service-kit/testing';
import { pdf } from '../../../test/helpers.ts';
import { useExtract } from '../../../test/use-extract.ts';

const app = useExtract();
const source = pdf('qpdf-11-pages.pdf');

describe('${id}', () => {
  it('gives the text of every page', async () => {
    const r = await callTool(app(), '${id}', { files: [source] });
    expect(r.status, JSON.stringify(r.error)).toBe(200);
    const text = r.body.toString('utf8');
    for (let page = 1; page <= 11; page++) expect(text).toMatch(new RegExp(\`Original page \${page}\\\\b\`));
    expect(r.properties).toMatchObject({ pages: 11 });
  });

  it('numbers the lines when asked', async () => {
    const r = await callTool(app(), '${id}', { files: [source], fields: { lineNumbers: 'true' } });
    expect(r.status, JSON.stringify(r.error)).toBe(200);
    const lines = r.body.toString('utf8').split('\\n');
    lines.forEach((line, i) => expect(line.startsWith(\`\${i + 1}\\t\`), line).toBe(true));
  });
});
`,
  contractTest: ({ id }) => `import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { corpusDir } from '../lib/corpus.ts';
import { runTool } from '../lib/http.ts';

const source = join(corpusDir, 'pdf', 'qpdf-11-pages.pdf');

${contractPreamble}

describe('${id}', () => {
  it('answers the text of every page, through nginx and the gateway', async () => {
    const { path, res, properties } = await runTool(base, '${id}', [source]);
    expect(res.headers.get('content-type')).toMatch(/^text\\/plain/);
    const text = readFileSync(path, 'utf8');
    for (let page = 1; page <= 11; page++) expect(text).toContain(\`Original page \${page}\`);
    expect(properties).toMatchObject({ pages: 11 });
  });
});
`,
};
