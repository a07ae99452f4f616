/**
 * The scaffold's edits of existing files, as text: each finds its place by a line that has been there
 * since the file was written, and throws when it is gone, so that a changed file stops the scaffold
 * before anything is written (its test runs it on a copy of the repository).
 */

function indexOf(source: string, marker: string, file: string, from = 0): number {
  const at = source.indexOf(marker, from);
  if (at < 0) throw new Error(`${file}: cannot find "${marker.trim()}" any more; update scripts/new-tool/insert.ts`);
  return at;
}

/** Adds a `defineTool({...})` entry at the end of the catalog's list and what it uses to the options import. */
export function addCatalogEntry(source: string, entry: string, optionImports: readonly string[]): string {
  const file = 'packages/catalog/src/tools.ts';
  const list = indexOf(source, '\nconst definitions = [\n', file);
  const end = indexOf(source, '\n] as const;\n', file, list);
  let out = `${source.slice(0, end)}\n${entry}${source.slice(end)}`;
  const options = /^import \{([^}]*)\} from '\.\/options\.ts';$/m.exec(out);
  if (!options) throw new Error(`${file}: cannot find its import from './options.ts' any more`);
  const names = options[1]!
    .split(',')
    .map((n) => n.trim())
    .filter(Boolean);
  const merged = [...new Set([...names, ...optionImports])].sort((a, b) => a.localeCompare(b));
  out = out.replace(options[0], `import { ${merged.join(', ')} } from './options.ts';`);
  return out;
}

/** Adds an option's English label at the end of the `options` section of en.ts, unless it has one. */
export function addOptionLabel(source: string, name: string, label: string): string {
  const file = 'frontend/app/i18n/en.ts';
  const section = indexOf(source, '\n  options: {\n', file);
  const end = indexOf(source, '\n  },\n', file, section);
  if (new RegExp(`^    ${name}:`, 'm').test(source.slice(section, end))) return source;
  return `${source.slice(0, end)}\n    ${name}: ${JSON.stringify(label)},${source.slice(end)}`;
}
