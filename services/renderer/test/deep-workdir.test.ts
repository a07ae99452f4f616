/** A checkout deep in the file system: Chromium's SingletonSocket must still fit a Unix socket path. */
import { mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { createApp, createRenderer, scratchRoot, type Renderer } from '../src/index.ts';
import { call, corpusHtml, leftovers, removeScratch, text } from './helpers.ts';

vi.setConfig({ testTimeout: 120_000, hookTimeout: 60_000 });

const top = mkdtempSync(join(tmpdir(), 'renderer-deep-'));
// Deeper than the 107 bytes a socket path holds, once Chromium's own folders are added.
const workDir = join(top, 'a-checkout-folder-whose-name-is-long', '.run', 'corpus-stack', 'work', 'renderer');
// A temporary folder of this file's own, so that other renderers running meanwhile do not count.
const temp = join(top, 't');
const machineTemp = process.env.TMPDIR;
let renderer: Renderer;

function chromiumFolders(): string[] {
  try {
    return readdirSync(join(temp, 'quire-chromium'));
  } catch {
    return [];
  }
}

beforeAll(async () => {
  mkdirSync(workDir, { recursive: true });
  mkdirSync(temp);
  process.env.WORK_DIR = workDir;
  process.env.TMPDIR = temp;
  renderer = createRenderer({});
  await renderer.supervisor.warm();
});

afterAll(async () => {
  await renderer.close();
  removeScratch();
  if (machineTemp === undefined) delete process.env.TMPDIR;
  else process.env.TMPDIR = machineTemp;
  expect(leftovers(workDir)).toEqual([]);
  expect(chromiumFolders()).toEqual([]);
  rmSync(top, { recursive: true, force: true });
});

it('keeps a shallow work root and moves a deep one to the temporary folder', () => {
  expect(scratchRoot('/srv/quire/.run/work/renderer')).toBe('/srv/quire/.run/work/renderer');
  expect(scratchRoot(workDir)).toBe(join(temp, 'quire-chromium'));
});

it('renders a page from a deep work root', async () => {
  const r = await call(createApp(renderer), 'html-to-pdf', { file: join(corpusHtml, 'jod-test.html') });
  expect(r.status).toBe(200);
  expect(text(r.pdf!)).toContain('Test document');
  expect(chromiumFolders()).toHaveLength(1);
});
