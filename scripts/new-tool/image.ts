import { contractPreamble, runComment, type ToolTemplate } from './template.ts';

/** An image tool: each image saved as a PNG, in grey when asked, in one zip. */
export const image: ToolTemplate = {
  icon: '🎨',
  category: 'Convert',
  guideCategory: 'Convert',
  entry: `input: { kinds: ['png', 'jpeg', 'webp'], min: 1, max: maxFiles },
    output: 'zip',
    checks: { pages: 'none' },
    options: z.object({ grayscale: boolField(false) }),`,
  optionImports: ['boolField'],
  option: {
    name: 'grayscale',
    label: 'Grayscale',
    guide: 'off by default. On, every image comes back in shades of grey.',
  },
  takes: 'one or more PNG, JPG or WebP images',
  makes: 'a zip with a PNG for each image, in the order you gave them',
  run: ({ id, name }) => `import { join } from 'node:path';
import sharp from 'sharp';
import type { ToolOptions } from '@quire/catalog';
import { createZip } from '@quire/pdf';
import type { ToolContext, ToolResult } from '@quire/service-kit';

${runComment(name, 'each image turned as it is shown and saved as a PNG, in grey when asked, all in one zip')}
export async function run(ctx: ToolContext<ToolOptions<'${id}'>>): Promise<ToolResult> {
  const path = join(ctx.workdir, 'images.zip');
  const zip = createZip(path);
  try {
    for (const [i, input] of ctx.inputs.entries()) {
      const name = \`image-\${i + 1}.png\`;
      const shown = sharp(input.path).rotate();
      await (ctx.options.grayscale ? shown.toColourspace('b-w') : shown).png().toFile(join(ctx.workdir, name));
      zip.add(join(ctx.workdir, name), name);
    }
    await zip.close();
  } catch (err) {
    await zip.abort();
    throw err;
  }
  return { path, properties: { images: ctx.inputs.length, grayscale: ctx.options.grayscale } };
}
`,
  unitTest: ({ id }) => `import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { callTool } from '@quire/service-kit/testing';
import { image, scratch, unzip } from '../../../test/helpers.ts';
import { useImageService } from '../../../test/use-image.ts';

const app = useImageService();
const photo = image('pillow-hopper.jpg');
const logo = image('pillow-transparent.png');

describe('${id}', () => {
  it('gives a PNG of the same size for each image, in order', async () => {
    const r = await callTool(app(), '${id}', { files: [photo, logo] }, scratch);
    expect(r.status, JSON.stringify(r.error)).toBe(200);
    const entries = await unzip(r.file!);
    expect(entries.map((e) => e.name)).toEqual(['image-1.png', 'image-2.png']);
    for (const [i, source] of [photo, logo].entries()) {
      const [made, given] = await Promise.all([sharp(entries[i]!.data).metadata(), sharp(source).metadata()]);
      expect(made.format).toBe('png');
      expect([made.width, made.height]).toEqual([given.width, given.height]);
    }
  });

  it('makes the images grey when asked', async () => {
    const r = await callTool(app(), '${id}', { files: [photo], fields: { grayscale: 'true' } }, scratch);
    expect(r.status, JSON.stringify(r.error)).toBe(200);
    const [entry] = await unzip(r.file!);
    expect((await sharp(entry!.data).metadata()).space).toBe('b-w');
  });
});
`,
  contractTest: ({ id }) => `import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { corpusDir } from '../lib/corpus.ts';
import { runTool } from '../lib/http.ts';

const photo = join(corpusDir, 'images', 'pillow-hopper.jpg');

${contractPreamble}

describe('${id}', () => {
  it('answers a zip with a PNG for each image, through nginx and the gateway', async () => {
    const { path, res } = await runTool(base, '${id}', [photo, photo]);
    expect(res.headers.get('content-type')).toBe('application/zip');
    expect(execFileSync('unzip', ['-Z1', path]).toString().trim().split('\\n')).toEqual(['image-1.png', 'image-2.png']);
    // A PNG's signature: byte 0x89, then "PNG".
    expect(execFileSync('unzip', ['-p', path, 'image-1.png']).subarray(1, 4).toString()).toBe('PNG');
  });
});
`,
};
