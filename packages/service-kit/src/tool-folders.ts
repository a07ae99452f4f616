import { existsSync, readdirSync } from 'node:fs';
import { toolsOf, type ServiceName } from '@quire/catalog';
import type { ToolContext, ToolResult, ToolRun } from './service.ts';

/**
 * What a tool's folder (`src/tools/<tool-id>/index.ts`) exports as `run`: one job, its options typed by
 * the tool's catalog schema, and what the service shares between its tools (a browser, an engine), if any.
 */
export type FolderRun<Options, Shared = undefined> = (ctx: ToolContext<Options>, shared: Shared) => Promise<ToolResult>;

interface ToolModule {
  run: (ctx: ToolContext, shared: unknown) => Promise<ToolResult>;
}

function isToolModule(module: unknown): module is ToolModule {
  return typeof module === 'object' && module !== null && 'run' in module && typeof module.run === 'function';
}

/**
 * The run of every catalog tool of a service, each from its own folder under `toolsDir`
 * (`<toolsDir>/<tool-id>/index.ts`): the service's map of tools follows from the catalog and the
 * folders. Throws at once when a catalog tool of the service has no folder, or a folder is no catalog
 * tool of the service. The modules start loading at once; a call waits for its own. A tool whose code
 * is heavy keeps it out of memory until used by importing it from its `run`.
 */
export function toolFolders<Shared = undefined>(
  service: ServiceName,
  toolsDir: URL,
  shared?: Shared,
): Record<string, ToolRun> {
  const ids = toolsOf(service).map((t) => t.id);
  const missing = ids.filter((id) => !existsSync(new URL(`${id}/index.ts`, toolsDir)));
  if (missing.length) {
    throw new Error(`${service}: no folder for the catalog's ${missing.join(', ')} (want tools/<tool-id>/index.ts)`);
  }
  const strays = readdirSync(toolsDir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && !ids.includes(entry.name))
    .map((entry) => entry.name);
  if (strays.length) {
    throw new Error(`${service}: tools/${strays.join(', tools/')} names no catalog tool of this service`);
  }
  return Object.fromEntries(
    ids.map((id) => {
      const file = new URL(`${id}/index.ts`, toolsDir);
      const loading = import(file.href).then((module: unknown) => {
        if (!isToolModule(module)) throw new Error(`${file.pathname} exports no run function`);
        return module.run;
      });
      // A module that fails to load fails each call of its tool, not the process.
      loading.catch(() => undefined);
      const run: ToolRun = async (ctx) => (await loading)(ctx, shared);
      return [id, run];
    }),
  );
}
