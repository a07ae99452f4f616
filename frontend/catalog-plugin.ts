import { siteTools } from '@quire/catalog';
import type { Plugin } from 'vite';

const id = 'virtual:quire/tools';

/** Serves the catalog's tools to the pages as plain data made at build time (`virtual:quire/tools`). */
export function catalogPlugin(): Plugin {
  return {
    name: 'quire-catalog',
    resolveId: (source) => (source === id ? `\0${id}` : undefined),
    load: (resolved) => (resolved === `\0${id}` ? `export const tools = ${JSON.stringify(siteTools())};` : undefined),
  };
}
