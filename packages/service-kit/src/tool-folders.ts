import { existsSync, readdirSync } from 'node:fs';
import { toolsOf, type ServiceName } from '@quire/catalog';
import type { ToolContext, ToolResult, ToolRun } from './service.ts';

interface ToolModule {
  run: (ctx: ToolContext, shared: unknown) => Promise<ToolResult>;
}

function isToolModule(module: unknown): module is ToolModule {
  return typeof module === 'object' && module !== null && 'run' in module && typeof module.run === 'function';
}

export interface ToolFolders {
  /** Each catalog tool of the service, by id. */
  tools: Record<string, ToolRun>;
  /** Settles once every tool's module has loaded; rejects with the first that failed (for start). */
  loaded: Promise<void>;
}

/**
 * The run of every catalog tool of a service, each from its own folder under `toolsDir`
 * (`<toolsDir>/<tool-id>/index.ts`): the service's map of tools follows from the catalog and the
 * folders. Throws at once when a catalog tool of the service has no folder, or a folder is no catalog
 * tool of the service. The modules start loading at once and a call waits for its own; a service's
 * start waits for `loaded`, so that a module that cannot load (or a setting it reads) stops it there.
 * A tool whose code is heavy keeps it out of memory until used by importing it from its `run`.
 */
export function toolFolders<Shared = undefined>(service: ServiceName, toolsDir: URL, shared?: Shared): ToolFolders {
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
  const loading = ids.map((id) => {
    const file = new URL(`${id}/index.ts`, toolsDir);
    const run = import(file.href).then((module: unknown) => {
      if (!isToolModule(module)) throw new Error(`${file.pathname} exports no run function`);
      return module.run;
    });
    // Until someone waits for it, a module that fails to load is no unhandled rejection.
    run.catch(() => undefined);
    return [id, run] as const;
  });
  const tools = Object.fromEntries(
    loading.map(([id, run]): [string, ToolRun] => [id, async (ctx) => (await run)(ctx, shared)]),
  );
  const loaded = Promise.all(loading.map(([, run]) => run)).then(() => undefined);
  loaded.catch(() => undefined);
  return { tools, loaded };
}
