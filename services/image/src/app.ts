import sharp from 'sharp';
import { programVersion } from '@quire/base';
import { createServiceApp, toolFolders, type ServiceOptions } from '@quire/service-kit';

/** The catalog's image tools, each from its folder under tools/. */
export const { tools, loaded } = toolFolders('image', new URL('./tools/', import.meta.url));

/** The engines answer: sharp decodes and encodes a pixel, poppler and qpdf start. */
export async function health(): Promise<Record<string, unknown>> {
  const [pdftoppm, qpdf] = await Promise.all([programVersion('pdftoppm', ['-v']), programVersion('qpdf')]);
  const png = await sharp({ create: { width: 1, height: 1, channels: 3, background: '#fff' } })
    .png()
    .toBuffer();
  const { width } = await sharp(png).metadata();
  if (width !== 1) throw new Error('sharp could not read back a PNG it made');
  return { sharp: sharp.versions.sharp, libvips: sharp.versions.vips, pdftoppm, qpdf };
}

export const serviceOptions: ServiceOptions = { name: 'image', tools, health };

/** The service's express app, for in-process tests. */
export function createApp() {
  return createServiceApp(serviceOptions);
}
