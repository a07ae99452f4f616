import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { compressionLevels } from '@quire/catalog/compression';

describe('the compression guide', () => {
  it('states each level’s numbers as the service enforces them', () => {
    const guide = readFileSync(new URL('../../content/blog/pdf-compress-guide.md', import.meta.url), 'utf8');
    // A table row, however Prettier pads its cells.
    const rows = guide.split('\n').map((line) => line.replace(/\s*\|\s*/g, '|').trim());
    for (const [level, { dpi, ssim, quality }] of Object.entries(compressionLevels)) {
      expect(rows).toContain(`|\`${level}\`|${dpi} dpi|${ssim}|${quality}|`);
    }
  });
});
