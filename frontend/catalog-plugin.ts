import type { SiteTool } from '@quire/catalog';
import { tsImport } from 'tsx/esm/api';
import type { Plugin } from 'vite';

const id = 'virtual:quire/tools';

/** Serves the catalog's tools to the pages as plain data made at build time (`virtual:quire/tools`). */
export function catalogPlugin(): Plugin {
  return {
    name: 'quire-catalog',
    resolveId: (source) => (source === id ? `\0${id}` : undefined),
    async load(resolved) {
      if (resolved !== `\0${id}`) return undefined;
      // The catalog is TypeScript source; whatever loaded this config may not read TypeScript itself.
      const catalog = (await tsImport('@quire/catalog', import.meta.url)) as { siteTools: () => SiteTool[] };
      return `export const tools = ${JSON.stringify(catalog.siteTools())};`;
    },
  };
}
