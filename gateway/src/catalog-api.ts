import {
  defaultOutputKind,
  errorCodes,
  optionsSchema,
  fileKinds,
  takesPassword,
  takesUrl,
  tools,
  type Tool,
} from '@quire/catalog';
import { jobPaths, jobSchema } from './jobs/openapi.ts';
import { filesBody, savedWorkflowPaths, toolParameter } from './openapi-parts.ts';

/** A tool as the public catalog shows it: everything a client needs to build a form and a request. */
export function describeTool(tool: Tool) {
  return {
    id: tool.id,
    aliases: tool.aliases,
    name: tool.name,
    description: tool.description,
    icon: tool.icon,
    category: tool.category,
    input:
      'kinds' in tool.input
        ? {
            files: { min: tool.input.min, max: tool.input.max },
            kinds: tool.input.kinds.map((k) => ({ kind: k, ...fileKinds[k] })),
            password: takesPassword(tool),
          }
        : { url: true },
    output: defaultOutputKind(tool),
    options: optionsSchema(tool),
  };
}

export function catalogJson() {
  return { tools: Object.fromEntries(tools.map((t) => [t.id, describeTool(t)])) };
}

const errorSchema = {
  type: 'object',
  required: ['error'],
  properties: {
    error: {
      type: 'object',
      required: ['code', 'message'],
      properties: {
        code: { type: 'string', enum: Object.keys(errorCodes) },
        message: { type: 'string' },
        details: {
          type: 'object',
          description: 'What the error is about, where known (see ErrorDetails in the catalog)',
          properties: {
            file: { type: 'string' },
            kind: { type: 'string' },
            tool: { type: 'string' },
            option: { type: 'string' },
            pages: { type: 'integer' },
            step: { type: 'integer' },
          },
        },
      },
    },
  },
};

function errorResponses() {
  const byStatus = new Map<number, string[]>();
  for (const [code, { status }] of Object.entries(errorCodes))
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  return Object.fromEntries(
    [...byStatus].map(([status, codes]) => [
      String(status),
      {
        description: codes.join(', '),
        content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
      },
    ]),
  );
}

function toolRequestBody(tool: Tool) {
  const options = optionsSchema(tool) as { properties?: Record<string, unknown>; required?: string[] };
  const properties: Record<string, unknown> = { ...(options.properties ?? {}) };
  const required = [...(options.required ?? [])];
  if (takesUrl(tool)) {
    properties.url = { type: 'string', format: 'uri', description: 'An http(s) address' };
    required.push('url');
  } else if ('kinds' in tool.input) {
    const file = {
      type: 'string',
      format: 'binary',
      description: tool.input.kinds.map((k) => fileKinds[k].label).join(', '),
    };
    properties.file =
      tool.input.max > 1 ? { type: 'array', items: file, minItems: tool.input.min, maxItems: tool.input.max } : file;
    required.push('file');
  }
  if (takesPassword(tool)) {
    properties.password = { type: 'string', description: 'For an encrypted PDF or a protected Office document' };
  }
  return { required: true, content: { 'multipart/form-data': { schema: { type: 'object', properties, required } } } };
}

const download = {
  description: 'The result is ready at /uploads/{download}',
  content: {
    'application/json': {
      schema: {
        type: 'object',
        required: ['download'],
        properties: {
          download: { type: 'string' },
          expiresAt: { type: 'string', format: 'date-time' },
          properties: { type: 'object' },
        },
      },
    },
  },
};

/** OpenAPI 3.1, generated from the catalog so it cannot drift from what the gateway accepts. */
export function openApi() {
  const paths: Record<string, unknown> = {};
  for (const tool of tools) {
    paths[`/api/v1/tools/${tool.id}`] = {
      post: {
        operationId: `run_${tool.id.replace(/-/g, '_')}`,
        summary: tool.name,
        description: tool.description + (tool.aliases.length ? ` Also reachable as: ${tool.aliases.join(', ')}.` : ''),
        tags: [tool.category],
        requestBody: toolRequestBody(tool),
        responses: { '200': download, ...errorResponses() },
      },
    };
  }
  paths['/api.php'] = {
    post: {
      operationId: 'legacy_run',
      summary: 'Run a tool (?tool=id) or a workflow (?workflow=custom&steps=a,b)',
      parameters: [
        toolParameter,
        { name: 'workflow', in: 'query', schema: { type: 'string', enum: ['custom'] } },
        { name: 'steps', in: 'query', schema: { type: 'string' } },
      ],
      requestBody: { content: { 'multipart/form-data': { schema: { type: 'object' } } } },
      responses: { '200': download, ...errorResponses() },
    },
  };
  paths['/api/v1/workflows'] = {
    post: {
      operationId: 'run_workflow',
      summary: 'Run tools in a chain, each step on the result of the one before',
      parameters: [
        { name: 'steps', in: 'query', schema: { type: 'string' }, example: 'pdf-merge,pdf-compress' },
        {
          name: 'saved',
          in: 'query',
          schema: { type: 'string' },
          description: "A saved workflow's id, instead of steps",
        },
      ],
      requestBody: filesBody({ password: { type: 'string' } }),
      responses: { '200': download, ...errorResponses() },
    },
  };
  Object.assign(paths, savedWorkflowPaths(errorResponses()));
  Object.assign(paths, jobPaths(errorResponses()));
  paths['/uploads/{name}'] = {
    get: {
      operationId: 'download',
      summary: 'Download a result while it lives',
      parameters: [{ name: 'name', in: 'path', required: true, schema: { type: 'string' } }],
      responses: { '200': { description: 'The file, as an attachment' }, '404': { description: 'Unknown or expired' } },
    },
  };
  const usage = {
    description: 'Uses per tool',
    content: {
      'application/json': {
        schema: {
          type: 'object',
          properties: { stats: { type: 'object', additionalProperties: { type: 'integer' } } },
        },
      },
    },
  };
  paths['/api/v1/usage'] = { get: { operationId: 'usage', summary: 'Usage counts', responses: { '200': usage } } };
  paths['/track_usage.php'] = {
    get: { operationId: 'legacy_usage', summary: 'Usage counts', responses: { '200': usage } },
  };
  paths['/api/v1/tools'] = {
    get: { operationId: 'catalog', summary: 'The tool catalog', responses: { '200': { description: 'Every tool' } } },
  };
  return {
    openapi: '3.1.0',
    info: {
      title: 'Quire API',
      version: '1',
      description: 'Free PDF tools over HTTP. Results live for a limited time.',
    },
    paths,
    components: { schemas: { Error: errorSchema, Job: jobSchema } },
  };
}

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** A plain page for people: every tool, its fields and an example call. */
export function apiDocsHtml(): string {
  const rows = tools
    .map((t) => {
      const props =
        (optionsSchema(t) as { properties?: Record<string, { default?: unknown; enum?: unknown[] }> }).properties ?? {};
      const opts = Object.entries(props)
        .map(
          ([k, v]) =>
            `<code>${escapeHtml(k)}</code>${v.enum ? ` (${escapeHtml(v.enum.join(' | '))})` : ''}${v.default !== undefined ? `, default <code>${escapeHtml(String(v.default))}</code>` : ''}`,
        )
        .join('<br>');
      const input = takesUrl(t) ? '<code>url</code>' : `<code>file</code>`;
      return `<tr><td><code>${escapeHtml(t.id)}</code></td><td>${escapeHtml(t.description)}</td><td>${input}</td><td>${opts || '–'}</td></tr>`;
    })
    .join('\n');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Quire API</title></head>
<body>
<h1>Quire API</h1>
<p>Send a file with <code>curl -F file=@report.pdf http://HOST/api/v1/tools/pdf-compress</code>; the answer names the result,
which you then fetch from <code>/uploads/NAME</code>. The machine-readable description is at
<a href="/api/v1/openapi.json">/api/v1/openapi.json</a>.</p>
<table border="1" cellpadding="4"><thead><tr><th>Tool</th><th>What it does</th><th>Input</th><th>Options</th></tr></thead>
<tbody>
${rows}
</tbody></table>
</body></html>`;
}
