import { readFile, writeFile } from 'node:fs/promises';
import { PDFDocument } from '@cantoo/pdf-lib';
import { ToolError } from '@quire/base';

/**
 * A PDF in pdf-lib, for the tools that change content. Never updates the producer or dates itself;
 * a file pdf-lib cannot read (qpdf having repaired what it could) is `damaged_input`.
 */
export async function loadPdf(path: string): Promise<PDFDocument> {
  try {
    const doc = await PDFDocument.load(await readFile(path), { updateMetadata: false, ignoreEncryption: true });
    // A catalog whose page tree pdf-lib cannot walk loads without complaint and fails only here.
    doc.getPages();
    return doc;
  } catch (err) {
    throw new ToolError('damaged_input', undefined, { cause: err });
  }
}

/** Saves a pdf-lib document without touching its forms' appearances or adding pages. */
export async function savePdf(doc: PDFDocument, path: string): Promise<void> {
  await writeFile(path, await doc.save({ updateFieldAppearances: false, addDefaultPage: false }));
}
