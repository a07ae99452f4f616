import { open } from 'node:fs/promises';

/** Bytes read at the end of the file, for `startxref` (and a classic trailer just before it). */
const tailBytes = 4096;
/** Bytes read where `startxref` points: a cross-reference stream's dictionary, or a short table and its trailer. */
const sectionBytes = 16_384;

/**
 * Whether a PDF's last trailer names an /Encrypt dictionary, read from the file's own bytes, without a
 * program. `false` only when the trailer was found where `startxref` says and plainly has no /Encrypt;
 * `undefined` when it cannot tell (no `startxref`, an offset that misses, a trailer out of reach, a name
 * written with # escapes), and then qpdf decides. A trailer of an incremental update repeats /Encrypt,
 * so the last one is enough.
 */
export async function trailerEncrypts(path: string): Promise<boolean | undefined> {
  const file = await open(path, 'r');
  try {
    const { size } = await file.stat();
    const read = async (at: number, length: number) => {
      const buf = Buffer.alloc(Math.max(0, Math.min(length, size - at)));
      const { bytesRead } = await file.read(buf, 0, buf.length, at);
      return buf.subarray(0, bytesRead).toString('latin1');
    };
    const tail = await read(Math.max(0, size - tailBytes), tailBytes);
    const last = tail.lastIndexOf('startxref');
    const offset = last < 0 ? NaN : Number(/^startxref\s+(\d{1,15})\s/.exec(tail.slice(last))?.[1]);
    if (!(offset > 0 && offset < size)) return undefined;
    const section = await read(offset, sectionBytes);
    return encrypts(trailerOf(section, tail.slice(0, last)));
  } finally {
    await file.close();
  }
}

/** The trailer dictionary's text of the cross-reference section at the start of `section`, if it is there. */
function trailerOf(section: string, beforeStartxref: string): string | undefined {
  if (/^xref\s/.test(section)) {
    // A table: its trailer follows it, or, past what was read of a long table, ends the file.
    const at = section.indexOf('trailer');
    const end = section.indexOf('startxref', at);
    if (at >= 0) return section.slice(at, end < 0 ? undefined : end);
    const last = beforeStartxref.lastIndexOf('trailer');
    return last < 0 ? undefined : beforeStartxref.slice(last);
  }
  // A cross-reference stream: `n g obj <<…>> stream`, its dictionary before its data.
  if (!/^\d+\s+\d+\s+obj\b/.test(section)) return undefined;
  const data = />>\s*stream\r?\n/.exec(section);
  const dict = data ? section.slice(0, data.index + 2) : undefined;
  return dict && /\/Type\s*\/XRef\b/.test(dict) ? dict : undefined;
}

function encrypts(trailer: string | undefined): boolean | undefined {
  // A name may be spelled with # escapes (/#45ncrypt is /Encrypt): such a trailer is left to qpdf.
  if (trailer === undefined || trailer.includes('#') || !/\/Root\b/.test(trailer)) return undefined;
  return /\/Encrypt(?![A-Za-z0-9])/.test(trailer);
}
