import { kindOfExtension, type FileKind } from '@quire/catalog/kinds';
import type { Tool } from './tools.ts';

/** The kind of a result, from its file name (the server names results by what they hold). */
export function resultKind(download: string): FileKind | undefined {
  const dot = download.lastIndexOf('.');
  return dot < 0 ? undefined : kindOfExtension(download.slice(dot + 1));
}

/** Whether a tool reads files of this kind, so that a result of it can be carried over. */
export function takesKind(tool: Tool, kind: FileKind | undefined): boolean {
  return kind !== undefined && 'kinds' in tool.input && tool.input.kinds.includes(kind);
}

/** The tools a result can go on to, the most used first: those that read its kind, but the one that made it. */
export function toolsFor(kind: FileKind | undefined, from: string, catalog: readonly Tool[]): Tool[] {
  return catalog.filter((t) => t.id !== from && takesKind(t, kind)).sort((a, b) => b.usage - a.usage);
}
