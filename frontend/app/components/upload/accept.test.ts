import { describe, expect, it } from 'vitest';
import { findTool } from '../../lib/tools.ts';
import { acceptOf } from './accept.ts';

describe('what the file picker offers', () => {
  it('offers every image both image tools take, by ending and by MIME type', () => {
    for (const id of ['image-to-pdf', 'jpg-to-pdf']) {
      const accept = acceptOf(findTool(id)!).split(',');
      for (const ending of ['.jpg', '.jpeg', '.png', '.bmp', '.gif', '.webp', '.tif', '.tiff', '.avif'])
        expect(accept, id).toContain(ending);
      for (const mime of ['image/jpeg', 'image/png', 'image/webp', 'image/tiff', 'image/avif'])
        expect(accept, id).toContain(mime);
      // Never HEIC: asked for JPEG, an iPhone converts its photos as it hands them over.
      expect(accept.some((a) => /heic|heif/.test(a))).toBe(false);
    }
  });

  it('offers endings only for documents', () => {
    expect(acceptOf(findTool('word-to-pdf')!)).toBe('.doc,.docx,.odt,.rtf');
    expect(acceptOf(findTool('html-to-pdf')!)).toBe('.html,.htm,.zip');
  });
});
