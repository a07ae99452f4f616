import { open } from 'node:fs/promises';

/** How much of each end of a file is searched for what is left of a PDF. */
const searched = 1024 * 1024;

/** A PDF header; readers look for it in the first kilobyte, and junk written before it moves it on. */
const header = /%PDF-\d/;
/** An indirect object's start, `12 0 obj`: what a reader rebuilds a lost cross-reference table from. */
const objectStart = /(?:^|[\s>\]])\d{1,10}[\0\t\n\f\r ]+\d{1,5}[\0\t\n\f\r ]+obj\b/;

/**
 * Whether a file holds a PDF that a reader could still recover, however damaged: a header anywhere in
 * its first megabyte, or an indirect object near either end (a file whose start was lost). A file of
 * another kind, plain text or nothing at all holds neither. For tools that repair what they read (see
 * the catalog's `input.damaged`); every other tool takes a PDF only when it begins as one (sniffKind).
 */
export async function holdsPdf(path: string): Promise<boolean> {
  const handle = await open(path, 'r');
  try {
    const { size } = await handle.stat();
    const read = async (at: number) => {
      const buffer = Buffer.alloc(Math.min(searched, size - at));
      const { bytesRead } = await handle.read(buffer, 0, buffer.length, at);
      return buffer.subarray(0, bytesRead).toString('latin1');
    };
    const head = await read(0);
    if (header.test(head) || objectStart.test(head)) return true;
    return size > searched && objectStart.test(await read(Math.max(searched, size - searched)));
  } finally {
    await handle.close();
  }
}
