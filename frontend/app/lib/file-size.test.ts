import { describe, expect, it } from 'vitest';
import { formatSize } from './file-size.ts';

describe('formatSize', () => {
  it.each([
    [0, '0 B'],
    [1, '1 B'],
    [512, '512 B'],
    [1023, '1,023 B'],
    [1024, '1 KB'],
    [1536, '1.5 KB'],
    [10 * 1024 - 1, '10 KB'],
    [45_678, '45 KB'],
    [1024 * 1024 - 1, '1 MB'],
    [1024 * 1024, '1 MB'],
    [2.25 * 1024 * 1024, '2.3 MB'],
    [123 * 1024 * 1024, '123 MB'],
    [3 * 1024 ** 3, '3 GB'],
  ])('%i bytes read %s', (bytes, text) => {
    expect(formatSize(bytes)).toBe(text);
  });

  it('never says "0.0 MB" for a small file', () => {
    expect(formatSize(300)).not.toMatch(/MB/);
  });

  it("writes the number the language's way", () => {
    expect(formatSize(1536, 'fr')).toBe('1,5 KB');
    expect(formatSize(1536, 'ar')).toMatch(/^[٠-٩]+٫[٠-٩] KB$|^1\.5 KB$/);
  });
});
