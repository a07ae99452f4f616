import sharp from 'sharp';
import { createServiceApp, exec, toolFolders, type ServiceOptions } from '@quire/service-kit';

/** The catalog's image tools, each from its folder under tools/. */
export const { tools, loaded } = toolFolders('image', new URL('./tools/', import.meta.url));

/** The engines answer: sharp decodes and encodes a pixel, poppler and qpdf start. */
export async function health(): Promise<Record<string, unknown>> {
  const [pdftoppm, qpdf] = await Promise.all([version('pdftoppm', ['-v']), version('qpdf', ['--version'])]);
  const png = await sharp({ create: { width: 1, height: 1, channels: 3, background: '#fff' } })
    .png()
    .toBuffer();
  const { width } = await sharp(png).metadata();
  if (width !== 1) throw new Error('sharp could not read back a PNG it made');
  return { sharp: sharp.versions.sharp, libvips: sharp.versions.vips, pdftoppm, qpdf };
}

async function version(command: string, args: string[]): Promise<string> {
  const { code, stdout, stderr } = await exec(command, args, { timeoutMs: 5000 });
  if (code !== 0) throw new Error(`${command} ${args.join(' ')} exited ${code}`);
  // pdftoppm prints its version on stderr.
  return (stdout || stderr).split('\n')[0]!.trim();
}

export const serviceOptions: ServiceOptions = { name: 'image', tools, health };

/** The service's express app, for in-process tests. */
export function createApp() {
  return createServiceApp(serviceOptions);
}
