import { tools } from '@quire/catalog';

/** `?tool=`: any tool's id or alias. */
export const toolParameter = {
  name: 'tool',
  in: 'query',
  schema: { type: 'string', enum: tools.flatMap((t) => [t.id, ...t.aliases]) },
};

/** A multipart body of files and the given fields: the workflow's and the job's requests. */
export function filesBody(fields: Record<string, unknown>) {
  const properties = { file: { type: 'array', items: { type: 'string', format: 'binary' } }, ...fields };
  return { content: { 'multipart/form-data': { schema: { type: 'object', properties } } } };
}
