import type { SiteTool } from '@quire/catalog';
import { tools } from 'virtual:quire/tools';

export { tools };
export type Tool = SiteTool;

/** A tool by its id or one of its aliases. */
export function findTool(idOrAlias: string): Tool | undefined {
  return tools.find((t) => t.id === idOrAlias || t.aliases.includes(idOrAlias));
}

export function takesUrl(tool: Tool): boolean {
  return 'url' in tool.input;
}

export function takesMany(tool: Tool): boolean {
  return 'kinds' in tool.input && tool.input.max > 1;
}

/** Whether a protected input is a PDF (else a Word, Excel or PowerPoint document): the password copy names it. */
export function readsPdf(tool: Tool): boolean {
  return 'kinds' in tool.input && tool.input.kinds.includes('pdf');
}
