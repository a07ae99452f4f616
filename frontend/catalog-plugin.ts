import type { SiteTool } from '@quire/catalog';
import { tsImport } from 'tsx/esm/api';
import type { Plugin } from 'vite';

interface Catalog {
  siteTools: () => SiteTool[];
  fileKinds: Record<string, { mime: string; ext: string; label: string }>;
  errorCodes: Record<string, { message: string }>;
}

const exported = (name: string, value: unknown) => `export const ${name} = ${JSON.stringify(value)};`;
const mapValues = <T, U>(record: Record<string, T>, f: (value: T) => U) =>
  Object.fromEntries(Object.entries(record).map(([key, value]) => [key, f(value)]));

/** What the pages import from the catalog, as plain data made at build time: only what they show. */
const modules: Record<string, (catalog: Catalog) => string> = {
  'virtual:quire/tools': (catalog) => exported('tools', catalog.siteTools()),
  'virtual:quire/file-kinds': (catalog) =>
    exported(
      'fileKinds',
      mapValues(catalog.fileKinds, (k) => ({ mime: k.mime, ext: k.ext, label: k.label })),
    ),
  'virtual:quire/error-messages': (catalog) =>
    exported(
      'errorMessages',
      mapValues(catalog.errorCodes, (e) => e.message),
    ),
};

/** Serves the catalog's data to the pages (`virtual:quire/…`, declared in app/virtual.d.ts). */
export function catalogPlugin(): Plugin {
  return {
    name: 'quire-catalog',
    resolveId: (source) => (source in modules ? `\0${source}` : undefined),
    async load(resolved) {
      const make = resolved.startsWith('\0') ? modules[resolved.slice(1)] : undefined;
      if (!make) return undefined;
      // The catalog is TypeScript source; whatever loaded this config may not read TypeScript itself.
      return make((await tsImport('@quire/catalog', import.meta.url)) as Catalog);
    },
  };
}
