import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { mapLimit, parallelism } from '@quire/base';
import type { ToolContext, ToolResult } from '@quire/service-kit';
import { limits } from './config.ts';
import { prepare, probe, tooManyPages, type Frame, type Prepared } from './images/frames.ts';
import { placeImage, type PageSize } from './pdf/layout.ts';
import { ImagePdfWriter } from './pdf/writer.ts';
import { inOrder } from './util.ts';

/**
 * JPG to PDF and Image to PDF, which take the same images: one page per image, or per page of a
 * multi-page TIFF, in the order sent, each shown as it is displayed (EXIF orientation applied by the
 * page's matrix, an AVIF's rotation and mirroring by its decoder). JPEGs go in as they are, never
 * re-encoded; other images losslessly; transparency is kept as a soft mask, so it shows on white.
 */
export async function imagesToPdf(ctx: ToolContext<{ pageSize: PageSize }>): Promise<ToolResult> {
  const { pageSize } = ctx.options;
  // Every header first, so a pixel bomb or too many pages is refused before any work.
  const frames: Frame[] = (await mapLimit(ctx.inputs, parallelism(), (input) => probe(input))).flat();
  if (frames.length > limits.maxPages) throw tooManyPages(frames.length);

  const out = join(ctx.workdir, 'images.pdf');
  const pdf = await ImagePdfWriter.create(out, ctx.signal);
  let asIs = 0;
  try {
    // A few images are decoded side by side; pages are written in order as soon as each is ready,
    // and each image's temporary files are removed once it is in the PDF.
    await inOrder(
      frames,
      parallelism(),
      (frame, i) => prepare(frame, ctx.workdir, i),
      async (prepared: Prepared, frame) => {
        try {
          ctx.signal.throwIfAborted();
          const placement = placeImage(
            {
              width: prepared.image.width,
              height: prepared.image.height,
              orientation: frame.orientation,
              dpi: frame.dpi,
            },
            pageSize,
          );
          await pdf.addPage({ ...placement, image: prepared.image });
          if (prepared.kept) asIs++;
        } finally {
          await Promise.all(prepared.files.map((f) => rm(f, { force: true })));
        }
      },
      (prepared) => Promise.all(prepared.files.map((f) => rm(f, { force: true }))).then(() => undefined),
    );
    await pdf.close();
  } catch (err) {
    await pdf.abort();
    throw err;
  }
  return {
    path: out,
    properties: {
      pages: frames.length,
      images: ctx.inputs.length,
      embeddedAsIs: asIs,
      pageSize,
    },
  };
}
