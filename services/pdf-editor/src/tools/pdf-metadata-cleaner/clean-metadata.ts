import { randomBytes } from 'node:crypto';
import {
  PDFArray,
  PDFDict,
  PDFHexString,
  PDFName,
  PDFRef,
  PDFStream,
  type PDFContext,
  type PDFObject,
} from '@cantoo/pdf-lib';
import type { ToolContext, ToolResult } from '@quire/service-kit';
import { loadPdf, savePdf } from '../../pdf-lib.ts';
import { openRepaired, workPath } from '../../pdf.ts';

/** Keys that carry who made a file, with what and when, wherever they appear. */
const identifying = new Set(['/Metadata', '/PieceInfo', '/LastModified']);
/** pdfTeX's record of each included PDF: its file name, page and whole information dictionary. */
const pdfTeX = '/PTEX.';

/**
 * Removes the document information dictionary, every XMP /Metadata stream (the catalog's and those of
 * pages, images, fonts...), /PieceInfo, /LastModified and pdfTeX's /PTEX.* notes on included files,
 * and gives the file a new random /ID. pdf-lib is told not to stamp its own producer or dates.
 */
export async function cleanMetadata(ctx: ToolContext): Promise<ToolResult> {
  const { path: source } = await openRepaired(ctx, ctx.inputs[0]!);
  const out = workPath(ctx, 'cleaned.pdf');
  return { path: out, properties: { pages: await scrubMetadata(source, out) } };
}

/** Writes `source` without its identifying data (see cleanMetadata) to `out`; answers its page count. */
export async function scrubMetadata(source: string, out: string): Promise<number> {
  const doc = await loadPdf(source);
  const { context } = doc;

  const doomed = new Set<PDFRef>();
  const info = context.trailerInfo.Info;
  if (info instanceof PDFRef) doomed.add(info);
  // Values the Info dictionary holds by reference go with it.
  const infoDict = context.lookup(info);
  if (infoDict instanceof PDFDict) {
    for (const value of infoDict.values()) if (value instanceof PDFRef) doomed.add(value);
  }
  context.trailerInfo.Info = undefined;

  for (const [ref, object] of context.enumerateIndirectObjects()) {
    const dict = object instanceof PDFStream ? object.dict : object;
    if (dict instanceof PDFDict && dict.get(PDFName.Type) === PDFName.of('Metadata')) doomed.add(ref);
    scrub(object, doomed);
  }
  // A trailer whose /Info names an object the document uses (its /Pages, in files written by some tools)
  // loses the reference only: what the catalog still reaches stays.
  const used = reachable(context, context.trailerInfo.Root);
  for (const ref of doomed) if (!used.has(ref)) context.delete(ref);

  context.trailerInfo.ID = newId(context);
  await savePdf(doc, out);
  return doc.getPageCount();
}

/** Drops the identifying keys from an object and the dictionaries and arrays written inside it. */
function scrub(object: PDFObject, doomed: Set<PDFRef>): void {
  const dict = object instanceof PDFStream ? object.dict : object;
  if (dict instanceof PDFDict) {
    for (const key of dict.keys()) {
      const name = key.asString();
      if (!identifying.has(name) && !name.startsWith(pdfTeX)) continue;
      const value = dict.get(key);
      if (value instanceof PDFRef) doomed.add(value);
      dict.delete(key);
    }
    for (const value of dict.values()) scrub(value, doomed);
  } else if (dict instanceof PDFArray) {
    for (const value of dict.asArray()) scrub(value, doomed);
  }
}

/** Every indirect object reachable from `root`, after the identifying keys are gone. */
function reachable(context: PDFContext, root: PDFObject | undefined): Set<PDFRef> {
  const seen = new Set<PDFRef>();
  const stack: PDFObject[] = root ? [root] : [];
  for (let object = stack.pop(); object !== undefined; object = stack.pop()) {
    if (object instanceof PDFRef) {
      if (seen.has(object)) continue;
      seen.add(object);
      const target = context.lookup(object);
      if (target) stack.push(target);
    } else if (object instanceof PDFStream) {
      stack.push(object.dict);
    } else if (object instanceof PDFDict) {
      stack.push(...object.values());
    } else if (object instanceof PDFArray) {
      stack.push(...object.asArray());
    }
  }
  return seen;
}

function newId(context: PDFContext): PDFArray {
  const id = () => PDFHexString.of(randomBytes(16).toString('hex'));
  return context.obj([id(), id()]);
}
