import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { toolsOf } from '@quire/catalog';
import { toolFolders } from './tool-folders.ts';
import type { ToolContext } from './service.ts';

const made: string[] = [];
afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A tools folder holding a folder for each id, whose run answers with its id, its options and what is shared. */
function toolsDir(ids: string[]): URL {
  const dir = mkdtempSync(join(tmpdir(), 'quire-tool-folders-'));
  made.push(dir);
  for (const id of ids) {
    mkdirSync(join(dir, id));
    writeFileSync(
      join(dir, id, 'index.ts'),
      `export const run = async (ctx, shared) => ({ path: ${JSON.stringify(id)}, properties: { options: ctx.options, shared } });\n`,
    );
  }
  return pathToFileURL(`${dir}/`);
}

const job = (options: Record<string, unknown>) => ({ options }) as ToolContext;
const imageTools = toolsOf('image').map((t) => t.id);

describe('a service’s tools from its folders', () => {
  it('runs each catalog tool of the service from its own folder, with what the service shares', async () => {
    const { tools, loaded } = toolFolders('image', toolsDir(imageTools), { engine: 'shared' });
    await loaded;
    expect(Object.keys(tools).sort()).toEqual([...imageTools].sort());
    const result = await tools['pdf-to-images']!(job({ dpi: 72 }));
    expect(result).toEqual({
      path: 'pdf-to-images',
      properties: { options: { dpi: 72 }, shared: { engine: 'shared' } },
    });
  });

  it('stops at start when a catalog tool has no folder, or a folder is no tool of the service', () => {
    expect(() => toolFolders('image', toolsDir(imageTools.slice(1)))).toThrow(imageTools[0]!);
    expect(() => toolFolders('image', toolsDir([...imageTools, 'pdf-merge']))).toThrow('tools/pdf-merge');
  });

  it('fails the start, and the calls of the tool, when a module has no run function or cannot load', async () => {
    const dir = toolsDir(imageTools);
    writeFileSync(new URL('jpg-to-pdf/index.ts', dir), 'export const walk = 1;\n');
    const { tools, loaded } = toolFolders('image', dir);
    await expect(loaded).rejects.toThrow('exports no run function');
    await expect(tools['jpg-to-pdf']!(job({}))).rejects.toThrow('exports no run function');
    expect((await tools['image-to-pdf']!(job({}))).path).toBe('image-to-pdf');

    const failing = toolsDir(imageTools);
    writeFileSync(new URL('jpg-to-pdf/index.ts', failing), "throw new Error('Setting X is bad');\n");
    await expect(toolFolders('image', failing).loaded).rejects.toThrow('Setting X is bad');
  });
});
