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

const workflowSchema = {
  type: 'object',
  required: ['steps'],
  properties: {
    name: { type: 'string', maxLength: 100 },
    steps: {
      type: 'array',
      maxItems: 20,
      items: {
        type: 'object',
        required: ['tool'],
        properties: {
          tool: { type: 'string' },
          options: { type: 'object', additionalProperties: { type: ['string', 'number', 'boolean'] } },
        },
      },
    },
  },
};

const savedWorkflow = (description: string) => ({
  description,
  content: {
    'application/json': {
      schema: {
        ...workflowSchema,
        properties: {
          ...workflowSchema.properties,
          id: { type: 'string' },
          createdAt: { type: 'string', format: 'date-time' },
          link: { type: 'string' },
        },
      },
    },
  },
});

/** Saving, reading and listing workflows with their options. */
export function savedWorkflowPaths(errors: Record<string, unknown>): Record<string, unknown> {
  return {
    '/api/v1/workflows/saved': {
      post: {
        operationId: 'save_workflow',
        summary: 'Saves a workflow with its options, checked as a run checks it; run it with ?saved={id}',
        requestBody: { required: true, content: { 'application/json': { schema: workflowSchema } } },
        responses: { '201': savedWorkflow('Saved'), ...errors },
      },
    },
    '/api/v1/workflows/saved/{id}': {
      get: {
        operationId: 'get_workflow',
        summary: 'A saved workflow',
        parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
        responses: { '200': savedWorkflow('The workflow'), ...errors },
      },
    },
    '/api/v1/me/workflows': {
      get: {
        operationId: 'my_workflows',
        summary: "The signed-in user's saved workflows, newest first",
        responses: { '200': { description: '{ workflows: [...] }' }, ...errors },
      },
    },
  };
}
