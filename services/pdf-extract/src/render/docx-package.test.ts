import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { strFromU8, unzipSync, zipSync, strToU8 } from 'fflate';
import { afterAll, describe, expect, it } from 'vitest';
import { documentXml, SectionBody, writePackage } from './docx-package.ts';

const dir = mkdtempSync(join(tmpdir(), 'docx-package-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function* strings(...parts: string[]) {
  yield* parts;
}

describe('SectionBody', () => {
  it('gives back every item whole, characters of several bytes across the read chunks included', async () => {
    const body = new SectionBody(join(dir, 'items'));
    const items = Array.from({ length: 20_000 }, (_, i) => `<w:p><w:t>é€𝄞 ${i} ${'x'.repeat(i % 97)}</w:t></w:p>`);
    for (const item of items) await body.add(item);
    await body.close();
    const read: string[] = [];
    for await (const item of body.items()) read.push(item);
    expect([...read, body.last]).toEqual(items);
  });
});

describe('SectionBody on a disk that fails', () => {
  it('reports the failure from add or close, never as an unheard error event', async () => {
    const body = new SectionBody(join(dir, 'no-such-folder', 'items'));
    const writing = (async () => {
      for (let i = 0; i < 3; i++) {
        await body.add(`<w:p>${i}</w:p>`);
        await new Promise((r) => setImmediate(r));
      }
      await body.close();
    })();
    await expect(writing).rejects.toMatchObject({ code: 'ENOENT' });
  });
});

describe('documentXml', () => {
  it("puts each section's body in place of its marker, its properties in its last paragraph, with ids", async () => {
    const first = new SectionBody(join(dir, 'first'));
    await first.add('<w:p><w:t>one</w:t></w:p>');
    await first.add('<w:p><w:r><w:drawing r:embed="rId{img-1}"/></w:r></w:p>');
    await first.close();
    const second = new SectionBody(join(dir, 'second'));
    await second.add('<w:p/>');
    await second.close();
    const sect = '<w:sectPr><w:pgSz w:w="100"/></w:sectPr>';
    const view = `<w:body><w:p><w:pPr>${sect}</w:pPr><w:r><w:t>M0</w:t></w:r></w:p><w:p><w:r><w:t>M1</w:t></w:r></w:p><w:sectPr/></w:body>`;
    let xml = '';
    for await (const s of documentXml(view, ['M0', 'M1'], [first, second], new Map([['img-1', '7']]))) xml += s;
    expect(xml).toBe(
      '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:body><w:p><w:t>one</w:t></w:p>' +
        `<w:p><w:pPr>${sect}</w:pPr><w:r><w:drawing r:embed="rId7"/></w:r></w:p><w:p/><w:sectPr/></w:body>`,
    );
  });
});

describe('writePackage', () => {
  it("keeps the package's entries in order, the streamed one in its place, and leaves only the archive", async () => {
    const packed = zipSync({
      '[Content_Types].xml': strToU8('types'),
      'word/document.xml': strToU8(''),
      'word/media/a.png': strToU8('png'),
    });
    const out = join(dir, 'pkg', 'out.docx');
    rmSync(join(dir, 'pkg'), { recursive: true, force: true });
    mkdirSync(join(dir, 'pkg'));
    await writePackage(packed, out, 'word/document.xml', strings('<a>', 'é'.repeat(100_000), '</a>'));
    const entries = unzipSync(new Uint8Array(readFileSync(out)));
    expect(Object.keys(entries)).toEqual(['[Content_Types].xml', 'word/document.xml', 'word/media/a.png']);
    expect(strFromU8(entries['word/document.xml']!)).toBe(`<a>${'é'.repeat(100_000)}</a>`);
    expect(strFromU8(entries['word/media/a.png']!)).toBe('png');
    expect(readdirSync(join(dir, 'pkg'))).toEqual(['out.docx']);
  });
});
