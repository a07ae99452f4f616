import { createServiceApp, exec, toolFolders, type ServiceOptions } from '@quire/service-kit';

/** The catalog's pdf-editor tools, each from its folder under tools/. */
export const { tools, loaded } = toolFolders('pdf-editor', new URL('./tools/', import.meta.url));

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
