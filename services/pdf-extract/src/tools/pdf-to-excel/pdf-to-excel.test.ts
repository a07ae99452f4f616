import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { call, corpus, officeParts } from '../../../test/helpers.ts';
import { useExtract } from '../../../test/use-extract.ts';

const app = useExtract();

describe('pdf-to-excel', () => {
  it('finds ruled tables with merged cells, and stores numbers as numbers', async () => {
    const a = await call(app(), 'pdf-to-excel', join(corpus, 'tables/camelot/column_span_2.pdf'));
    const parts = officeParts(a.file!);
    const workbook = parts['xl/workbook.xml']!;
    expect(workbook).toMatch(/name="Page 1 table 1"/);
    const sheet = parts['xl/worksheets/sheet1.xml']!;
    expect(sheet).toMatch(/<mergeCell /);
    // Numeric cells carry no t="s": they are numbers.
    expect(sheet).toMatch(/<c r="[A-Z]+\d+"( s="\d+")?><v>\d/);
  });
});

describe('pdf-to-excel, a table over several pages', () => {
  it('gives one sheet, the header printed on each page kept once', async () => {
    const a = await call(app(), 'pdf-to-excel', join(corpus, 'tables/tabula/schools.pdf'));
    const parts = officeParts(a.file!);
    expect(parts['xl/workbook.xml']!.match(/<sheet /g)).toHaveLength(1);
    const strings = [...parts['xl/sharedStrings.xml']!.matchAll(/<si>([\s\S]*?)<\/si>/g)].map((m) =>
      m[1]!.replace(/<[^>]+>/g, ''),
    );
    // The first row of page 1 and the last rows of page 5 are in it.
    expect(strings).toContain('Lidstad');
    expect(strings).toContain('CenturyLink (Clay Bailey)');
    const header = strings.indexOf('Last Name');
    const uses = parts['xl/worksheets/sheet1.xml']!.match(new RegExp(`t="s"[^>]*><v>${header}</v>`, 'g'));
    expect(uses).toHaveLength(1);
  });
});
