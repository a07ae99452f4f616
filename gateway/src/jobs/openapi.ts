import { constants } from '@quire/catalog';
import { filesBody, toolParameter } from '../openapi-parts.ts';

const counter = {
  type: 'object',
  required: ['done', 'total'],
  properties: { done: { type: 'integer' }, total: { type: 'integer' } },
};

const error = { $ref: '#/components/schemas/Error/properties/error' };

/** An array of objects, a batch's files. */
const listOf = (description: string, required: string[], properties: Record<string, unknown>) => ({
  type: 'array',
  description,
  items: { type: 'object', required, properties },
});

/** A job as GET /api/v1/jobs/{id} shows it. */
export const jobSchema = {
  type: 'object',
  required: ['id', 'state', 'tool', 'steps', 'createdAt', 'progress'],
  properties: {
    id: { type: 'string', description: 'The key to the job: 144 random bits, base64url' },
    state: { type: 'string', enum: ['queued', 'running', 'done', 'failed', 'cancelled'] },
    tool: { type: 'string', description: "The tool's id, or `workflow`" },
    steps: { type: 'array', items: { type: 'string' } },
    createdAt: { type: 'string', format: 'date-time' },
    startedAt: { type: 'string', format: 'date-time' },
    endedAt: { type: 'string', format: 'date-time' },
    progress: {
      type: 'object',
      required: ['files'],
      properties: {
        files: counter,
        pages: { ...counter, description: 'When every file is a PDF whose pages could be counted' },
        steps: { ...counter, description: "A workflow's steps ended, for a job of one file" },
        perFile: listOf("A batch: each file's state, in the order sent", ['file', 'state'], {
          file: { type: 'string' },
          state: { type: 'string', enum: ['queued', 'processing', 'done', 'failed'] },
          pages: { type: 'integer', description: 'When it is a PDF whose pages could be counted' },
          error,
        }),
      },
    },
    result: {
      type: 'object',
      description: 'When done',
      required: ['download'],
      properties: {
        download: { type: 'string', description: 'At /uploads/{download} while results live' },
        properties: { type: 'object' },
        report: listOf('A batch: each file, in the order sent (also report.json in the zip)', ['file', 'outcome'], {
          file: { type: 'string' },
          outcome: { type: 'string', enum: ['ok', 'failed'] },
          result: { type: 'string', description: 'Its name in the zip' },
          error,
          checks: { type: 'object' },
        }),
      },
    },
    error,
  },
};

const job = (description: string) => ({
  description,
  content: { 'application/json': { schema: { $ref: '#/components/schemas/Job' } } },
});

const idParameter = { name: 'id', in: 'path', required: true, schema: { type: 'string' } };

/** The jobs' paths, with the contract's error answers. */
export function jobPaths(errors: Record<string, unknown>): Record<string, unknown> {
  return {
    '/api/v1/jobs': {
      post: {
        operationId: 'create_job',
        summary: 'Run a tool (?tool=id) or a workflow (?steps=a,b) as a job, answered at once',
        description:
          `The same multipart fields as the tool call or the workflow. A single-file tool (or a workflow whose first ` +
          `step is one) takes a batch of up to ${constants.batchMaxFiles} files, each processed on its own; the result ` +
          'is then a zip of the results and report.json. A client may have a bounded number of jobs queued or ' +
          'running (429 busy beyond, with Retry-After).',
        parameters: [
          toolParameter,
          { name: 'steps', in: 'query', schema: { type: 'string' }, example: 'rotate-pdf,pdf-compress' },
        ],
        requestBody: filesBody({
          webhook: {
            type: 'string',
            format: 'uri',
            description:
              'Called (POST, the job as JSON, X-Quire-Signature: sha256=HMAC of the body) when the job ends; ' +
              'a public http(s) address only',
          },
        }),
        responses: { '202': job('Accepted: queued. Location is the job; `events` its stream'), ...errors },
      },
    },
    '/api/v1/jobs/{id}': {
      get: {
        operationId: 'get_job',
        summary: 'A job: its state, progress and, when done, its result',
        parameters: [idParameter],
        responses: { '200': job('The job'), ...errors },
      },
      delete: {
        operationId: 'cancel_job',
        summary: 'Cancels a job that has not ended, stopping its engines',
        parameters: [idParameter],
        responses: { '200': job('The job, cancelled (or as it ended, when it had)'), ...errors },
      },
    },
    '/api/v1/jobs/{id}/events': {
      get: {
        operationId: 'job_events',
        summary: 'The job as Server-Sent Events (numbered; `event` is its state) until it ends',
        parameters: [idParameter],
        responses: { '200': { description: 'text/event-stream' }, ...errors },
      },
    },
    '/api/v1/jobs/{id}/files/{n}': {
      get: {
        operationId: 'job_file',
        summary: "One file's result from a done batch, read from its zip; a failed file's error",
        parameters: [
          idParameter,
          {
            name: 'n',
            in: 'path',
            required: true,
            schema: { type: 'integer', minimum: 1 },
            description: 'Its place in the report, from 1',
          },
        ],
        responses: { '200': { description: 'The file, as an attachment' }, ...errors },
      },
    },
    '/api/v1/jobs/{id}/result': {
      get: {
        operationId: 'job_result',
        summary: "A done job's result; 409 job_not_finished, 410 job_cancelled, or a failed job's error",
        parameters: [idParameter],
        responses: { '200': { description: 'The file, as an attachment' }, ...errors },
      },
    },
  };
}
