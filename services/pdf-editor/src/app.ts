import { programVersion } from '@quire/base';
import { createServiceApp, toolFolders, type ServiceOptions } from '@quire/service-kit';

/** The catalog's pdf-editor tools, each from its folder under tools/. */
export const { tools, loaded } = toolFolders('pdf-editor', new URL('./tools/', import.meta.url));

/** The engines answer: qpdf for every tool, Ghostscript for compression, MuPDF for redaction. */
export async function health(): Promise<Record<string, unknown>> {
  const [qpdf, ghostscript, mupdf] = await Promise.all([
    programVersion('qpdf'),
    programVersion('gs'),
    programVersion('mutool', ['-v']),
  ]);
  return { qpdf, ghostscript, mupdf };
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
