import type { ToolId } from '@quire/catalog';
import { errorCodes, type ErrorCode } from '@quire/catalog/errors';
import { tools } from '../lib/tools.ts';
import { en } from './en.ts';

/** The shape every language fills: the same keys as English, any text. */
type Copy<T> = { [K in keyof T]: T[K] extends string ? string : Copy<T[K]> };
export type ToolCopy = Record<ToolId, { name: string; description: string }>;
export type Dictionary = Copy<typeof en> & { tools: ToolCopy; errors: Record<ErrorCode, string> };

export const english: Dictionary = {
  ...en,
  tools: Object.fromEntries(tools.map((t) => [t.id, { name: t.name, description: t.description }])) as ToolCopy,
  errors: Object.fromEntries(Object.entries(errorCodes).map(([code, e]) => [code, e.message])) as Record<
    ErrorCode,
    string
  >,
};
