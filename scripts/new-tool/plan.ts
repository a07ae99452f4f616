import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { format, resolveConfig } from 'prettier';
import { findTool, services, type ServiceName } from '@quire/catalog';
import { guide, guideProblems } from './guide.ts';
import { image } from './image.ts';
import { addCatalogEntry, addOptionLabel } from './insert.ts';
import { pdfEditor } from './pdf-editor.ts';
import { pdfExtract } from './pdf-extract.ts';
import type { NewTool, ToolTemplate } from './template.ts';

/** The services the scaffold writes tools for. */
export const templates: Partial<Record<ServiceName, ToolTemplate>> = {
  'pdf-editor': pdfEditor,
  image,
  'pdf-extract': pdfExtract,
};

/** A request the scaffold turns down, with what to do instead; nothing has been written. */
export class Refusal extends Error {}

const kebabCase = /^[a-z][a-z0-9]*(?:-[a-z0-9]+)*$/;

/** Words written in capitals in a tool's name. */
const acronyms = new Set(['pdf', 'jpg', 'png', 'html', 'url', 'ocr', 'csv', 'svg', 'xml']);

/** "pdf-to-svg" gives "PDF to SVG". */
export function nameFromId(id: string): string {
  return id
    .split('-')
    .map((word, i) =>
      acronyms.has(word) ? word.toUpperCase() : word === 'to' && i > 0 ? word : word[0]!.toUpperCase() + word.slice(1),
    )
    .join(' ');
}

export interface Request {
  id: string;
  service: string;
  name?: string;
  description?: string;
  /** The guide's date, yyyy-mm-dd. */
  date: string;
}

/** One file to write: its path from the repository's root and its whole new content. */
export interface Write {
  path: string;
  content: string;
  created: boolean;
}

/**
 * Everything the scaffold writes for a new tool, formatted, or a refusal: the request is checked
 * whole before anything is written.
 */
export async function planNewTool(root: string, request: Request): Promise<Write[]> {
  const { id, service } = request;
  if (!kebabCase.test(id)) {
    throw new Refusal(`"${id}" is not a tool id: use kebab-case words, such as pdf-grayscale.`);
  }
  if (findTool(id)) throw new Refusal(`The catalog already has a tool "${id}" (as its id or an alias).`);
  if (!Object.hasOwn(services, service)) {
    throw new Refusal(`There is no service "${service}". The services are: ${Object.keys(services).join(', ')}.`);
  }
  const template = templates[service as ServiceName];
  if (!template) {
    throw new Refusal(
      `The scaffold has no template for ${service} tools yet; it writes tools for ${Object.keys(templates).join(', ')}.`,
    );
  }
  const name = request.name ?? nameFromId(id);
  const tool: NewTool = {
    id,
    name,
    description: request.description ?? `${name}: one sentence on what it does for the visitor.`,
  };
  const problems = guideProblems(tool);
  if (problems.length) throw new Refusal(`Cannot write the guide: ${problems.join('; ')}.`);

  const folder = `services/${service}/src/tools/${id}`;
  const created: [string, string][] = [
    [`${folder}/index.ts`, template.run(tool)],
    [`${folder}/${id}.test.ts`, template.unitTest(tool)],
    [`tests/contract/${id}.test.ts`, template.contractTest(tool)],
    [`frontend/content/blog/${id}-guide.md`, guide(tool, template, request.date)],
  ];
  const taken = [folder, ...created.map(([path]) => path)].filter((path) => existsSync(join(root, path)));
  if (taken.length) throw new Refusal(`These are there already, from an earlier try? ${taken.join(', ')}`);

  const catalogPath = 'packages/catalog/src/tools.ts';
  const englishPath = 'frontend/app/i18n/en.ts';
  const entry = `  defineTool({
    id: '${id}',
    aliases: [],
    keywords: [],
    name: ${JSON.stringify(tool.name)},
    description: ${JSON.stringify(tool.description)},
    icon: '${template.icon}',
    category: '${template.category}',
    usage: 0,
    service: '${service}',
    ${template.entry}
  }),`;
  const changed: [string, string][] = [
    [catalogPath, addCatalogEntry(read(root, catalogPath), entry, template.optionImports)],
    [englishPath, addOptionLabel(read(root, englishPath), template.option.name, template.option.label)],
  ];
  const writes = [
    ...created.map(([path, content]) => ({ path, content, created: true })),
    ...changed.map(([path, content]) => ({ path, content, created: false })),
  ];
  return Promise.all(writes.map(async (w) => ({ ...w, content: await formatted(join(root, w.path), w.content) })));
}

function read(root: string, path: string): string {
  return readFileSync(join(root, path), 'utf8');
}

/** As `prettier --write` would leave it, so that the lint passes on what the scaffold writes. */
async function formatted(path: string, content: string): Promise<string> {
  return format(content, { ...(await resolveConfig(path)), filepath: path });
}
