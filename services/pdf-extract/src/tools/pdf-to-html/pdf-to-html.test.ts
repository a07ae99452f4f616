import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { call, pdf } from '../../../test/helpers.ts';
import { useExtract } from '../../../test/use-extract.ts';

const app = useExtract();

describe('pdf-to-html', () => {
  it('makes self-contained, escaped HTML with images inlined', async () => {
    const a = await call(app(), 'pdf-to-html', pdf('pypdf-pdflatex-image.pdf'));
    const html = readFileSync(a.file!, 'utf8');
    expect(html).toMatch(/^<!DOCTYPE html>/);
    expect(html).toMatch(/<img src="data:image\/png;base64,/);
    expect(html).not.toMatch(/src="(?!data:)/);
    expect(html).not.toMatch(/<script/i);
  });
});
