import { findSourceMap } from 'node:module';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { expect, it } from 'vitest';
import { loadPdfjs } from './pdfjs.ts';

it('loads pdf.js without holding its source map, and leaves source maps on for the rest', async () => {
  process.setSourceMapsEnabled(true);
  await loadPdfjs();
  const root = dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json'));
  const file = join(root, 'legacy/build/pdf.mjs');
  expect(findSourceMap(pathToFileURL(file).href) ?? findSourceMap(file)).toBeUndefined();
  expect(process.sourceMapsEnabled).toBe(true);
});
