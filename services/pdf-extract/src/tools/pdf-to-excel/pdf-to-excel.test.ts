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
