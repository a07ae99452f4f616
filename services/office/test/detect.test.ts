import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { detectOfficeFormat, officeKindFor } from '@quire/detect';
import { asciiStem, csvFilterOptions } from '../src/convert.ts';
import { office, tempDir } from './helpers.ts';

const dir = tempDir('office-detect-');
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const file = (name: string, content: string | Buffer) => {
  const path = join(dir, name);
  writeFileSync(path, content);
  return path;
};

describe('detectOfficeFormat', () => {
  it.each([
    ['jod-test.doc', 'doc', 'writer'],
    ['textract-raw_text.doc', 'doc', 'writer'],
    ['jod-test.xls', 'xls', 'calc'],
    ['jod-test_multi_page.xls', 'xls', 'calc'],
    ['jod-test.ppt', 'ppt', 'impress'],
    ['jod-test.docx', 'docx', 'writer'],
    ['jod-test.xlsx', 'xlsx', 'calc'],
    ['jod-test.pptx', 'pptx', 'impress'],
    // Named .ppsx, but its main part says presentation: judged by content, it is a pptx.
    ['gotenberg-slideshow.ppsx', 'pptx', 'impress'],
    ['jod-test.odt', 'odt', 'writer'],
    ['jod-test.ods', 'ods', 'calc'],
    ['jod-test.odp', 'odp', 'impress'],
    ['jod-test.fodt', 'odt', 'writer'],
    ['jod-test.rtf', 'rtf', 'writer'],
    ['jod-test_password.odt', 'odt', 'writer'],
  ])('tells %s is %s (%s) by content', async (name, kind, family) => {
    const format = await detectOfficeFormat(office(name));
    expect(format).toMatchObject({ kind, family });
  });

  it('knows StarOffice Writer and flat ODF by their declared type', async () => {
    expect(await detectOfficeFormat(office('jod-test.sxw'))).toEqual({
      ext: 'sxw',
      family: 'writer',
      protection: 'none',
    });
    expect(await detectOfficeFormat(office('jod-test.fodt'))).toMatchObject({ ext: 'fodt', kind: 'odt' });
  });

  it('tells which documents take a password where the bytes say so cheaply', async () => {
    const protection = async (name: string) => (await detectOfficeFormat(office(name)))?.protection;
    expect(await protection('jod-test_password.odt')).toBe('required');
    for (const open of ['jod-test.odt', 'jod-test.docx', 'jod-test.xlsx', 'jod-test.odp'])
      expect(await protection(open), open).toBe('none');
    // Legacy binary and text documents keep their encryption deeper: not judged here.
    for (const unknown of ['jod-test.doc', 'jod-test.fodt']) expect(await protection(unknown), unknown).toBeUndefined();
  });

  it('sees encrypted OOXML as such, without guessing which application', async () => {
    const format = await detectOfficeFormat(office('gotenberg-protected_page_1.docx'));
    expect(format).toEqual({ ext: 'docx', encrypted: true, protection: 'required' });
    expect(await officeKindFor(office('gotenberg-protected_page_1.docx'), ['doc', 'docx', 'odt', 'rtf'])).toBe('docx');
    expect(await officeKindFor(office('gotenberg-protected_page_1.docx'), ['xls', 'xlsx', 'ods', 'csv'])).toBe('xlsx');
  });

  it('reads CSV with its separator, encoding and width', async () => {
    const csv = file('t.csv', 'name;code;note\n"Smith; J.";007;"a ""quoted"" word"\nZoë;12;x\n');
    expect(await detectOfficeFormat(csv)).toEqual({
      ext: 'csv',
      kind: 'csv',
      family: 'calc',
      csv: { separator: ';', encoding: 'utf8', columns: 3 },
    });
    const tabs = file('t.tsv', 'a\tb\n1\t2\n');
    expect((await detectOfficeFormat(tabs))?.csv?.separator).toBe('\t');
    const latin1 = file('l.csv', Buffer.from('nom,ville\nJosé,Zürich\n', 'latin1'));
    expect((await detectOfficeFormat(latin1))?.csv?.encoding).toBe('latin1');
    const multiline = file('m.csv', 'a,b\n"line one\nline two",2\n3,4\n');
    expect((await detectOfficeFormat(multiline))?.csv?.columns).toBe(2);
  });

  it('refuses what is not an office document', async () => {
    const cases = [
      file('prose.txt', 'Hello, world. This is prose, with commas, here and there.\nAnother line.\n'),
      file('one.csv', 'a,b,c\n'),
      file('page.html', '<!doctype html><html><body>hi</body></html>'),
      file('data.xml', '<?xml version="1.0"?><root/>'),
      file('bin.dat', Buffer.from([0, 1, 2, 3, 4, 5, 0, 0])),
      file('empty.docx', ''),
      file('fake.docx', 'PK\u0003\u0004 not really a zip'),
      file('ragged.csv', 'a,b,c\n1,2\n3,4,5,6\n'),
    ];
    for (const path of cases) expect(await detectOfficeFormat(path), path).toBeUndefined();
    expect(await detectOfficeFormat(join(office('..'), '../corpus/pdf/qpdf-11-pages.pdf'))).toBeUndefined();
  });

  it('reads an OLE2 file with no office stream as nothing', async () => {
    // A minimal compound file: header, one FAT sector, one directory sector with only the root.
    const sector = 512;
    const buf = Buffer.alloc(sector * 3, 0);
    Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]).copy(buf, 0);
    buf.writeUInt16LE(0x3e, 0x18);
    buf.writeUInt16LE(3, 0x1a);
    buf.writeUInt16LE(0xfffe, 0x1c);
    buf.writeUInt16LE(9, 0x1e);
    buf.writeUInt16LE(6, 0x20);
    buf.writeUInt32LE(1, 0x2c); // one FAT sector
    buf.writeUInt32LE(1, 0x30); // directory at sector 1
    buf.writeUInt32LE(0xfffffffe, 0x3c);
    buf.writeUInt32LE(0xfffffffe, 0x44);
    buf.fill(0xff, 0x4c, 512);
    buf.writeUInt32LE(0, 0x4c); // FAT in sector 0
    const fat = sector;
    buf.fill(0xff, fat, fat + sector);
    buf.writeUInt32LE(0xfffffffd, fat); // sector 0: FAT
    buf.writeUInt32LE(0xfffffffe, fat + 4); // sector 1: end of directory chain
    const root = sector * 2;
    Buffer.from('Root Entry\0', 'utf16le').copy(buf, root);
    buf.writeUInt16LE(22, root + 0x40);
    buf[root + 0x42] = 5;
    buf.writeUInt32LE(0xffffffff, root + 0x44);
    buf.writeUInt32LE(0xffffffff, root + 0x48);
    buf.writeUInt32LE(0xffffffff, root + 0x4c);
    expect(await detectOfficeFormat(file('empty.ole', buf))).toBeUndefined();
  });
});

describe('what LibreOffice is told', () => {
  it('reads every CSV column as text, in the detected charset', () => {
    expect(csvFilterOptions({ separator: ';', encoding: 'utf8', columns: 3 })).toBe(
      '59,34,76,1,1/2/2/2/3/2,1033,true,false,false,false,false,-1,false',
    );
    expect(csvFilterOptions({ separator: '\t', encoding: 'latin1', columns: 1 }).startsWith('9,34,1,1,1/2,')).toBe(
      true,
    );
  });

  it('names the file it opens in plain ASCII', () => {
    expect(asciiStem('Special_Chars_ß.docx')).toBe('Special_Chars_');
    expect(asciiStem('../../etc/passwd')).toBe('etc-passwd');
    expect(asciiStem('résumé final.odt')).toBe('resume-final');
    expect(asciiStem('ßß.docx')).toBe('document');
  });
});
