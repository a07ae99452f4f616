import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { serverArgs } from '@quire/base';
import { describe, expect, it } from 'vitest';
import { readImageLimits } from '../src/config.ts';

describe("the image service's limits", () => {
  it('default to what the corpus needs, and take whole numbers', () => {
    expect(readImageLimits({})).toEqual({
      maxMegapixels: 300,
      maxWholeMegapixels: 50,
      maxPages: 1000,
      renderMegapixels: 1000,
      renderPageMegapixels: 50,
      renderImageMegapixels: 300,
      extractImages: 1000,
    });
    expect(readImageLimits({ IMAGE_MAX_PAGES: '12', RENDER_MAX_MEGAPIXELS: '' })).toMatchObject({
      maxPages: 12,
      renderMegapixels: 1000,
    });
  });

  it('refuse a bad value, naming the setting', () => {
    expect(() => readImageLimits({ IMAGE_MAX_MEGAPIXELS: '300MP' })).toThrow(
      'Setting IMAGE_MAX_MEGAPIXELS must be a whole number, not "300MP"',
    );
    expect(() => readImageLimits({ IMAGE_MAX_PAGES: '0' })).toThrow('Setting IMAGE_MAX_PAGES must be at least 1');
  });

  it('are read when the service starts: a bad one stops it before it listens', () => {
    const run = spawnSync(process.execPath, serverArgs(join(import.meta.dirname, '..', 'src', 'main.ts')), {
      env: { PATH: process.env.PATH, RENDER_MAX_PAGE_MEGAPIXELS: 'fifty', PORT: '1' },
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(run.status).not.toBe(0);
    expect(run.stderr).toContain('Setting RENDER_MAX_PAGE_MEGAPIXELS must be a whole number, not "fifty"');
    expect(run.stdout).not.toContain('listening');
  });
});
