import type { ToolId } from '@quire/catalog';
import { createServiceApp, exec, type ServiceOptions, type ToolRun } from '@quire/service-kit';
import { compress } from './tools/compress.ts';
import { merge } from './tools/merge.ts';
import { removePages } from './tools/remove-pages.ts';
import { rotate } from './tools/rotate.ts';
import { split } from './tools/split.ts';
import { unlock } from './tools/unlock.ts';

/**
 * A tool loaded on its first use: those built on pdf-lib (some 40 MB once loaded) stay out of memory
 * until asked for, so the qpdf tools that handle the largest files run in a small process.
 */
function lazy(load: () => Promise<ToolRun>): ToolRun {
  let tool: Promise<ToolRun> | undefined;
  return async (ctx) => (await (tool ??= load()))(ctx);
}

/** The catalog's pdf-editor tools, by canonical id. */
export const tools = {
  'pdf-merge': merge,
  'pdf-split': split,
  'rotate-pdf': rotate,
  'pdf-page-remove': removePages,
  'add-watermark': lazy(async () => (await import('./tools/watermark.ts')).watermark),
  'pdf-unlock': unlock,
  'pdf-compress': compress,
  'pdf-metadata-cleaner': lazy(async () => (await import('./tools/clean-metadata.ts')).cleanMetadata),
} satisfies Partial<Record<ToolId, ToolRun>>;

/** The engines answer: qpdf for every tool, Ghostscript for compression. */
export async function health(): Promise<Record<string, unknown>> {
  const [qpdf, ghostscript] = await Promise.all([version('qpdf'), version('gs')]);
  return { qpdf, ghostscript };
}

async function version(command: string): Promise<string> {
  const { code, stdout } = await exec(command, ['--version'], { timeoutMs: 5000 });
  if (code !== 0) throw new Error(`${command} --version exited ${code}`);
  return stdout.split('\n')[0]!.trim();
}

export const serviceOptions: ServiceOptions = {
  name: 'pdf-editor',
  tools,
  health,
};

/** The service's express app, for in-process tests. */
export function createApp() {
  return createServiceApp(serviceOptions);
}
