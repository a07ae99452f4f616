import { readStart } from './file-start.ts';

const head = 64 * 1024;

/**
 * Whether bytes read as text: UTF-8 (a character cut at the end of a head read is allowed), with no
 * NUL and no control characters but tab, line breaks and form feed. Binary files fail at once.
 */
export function isText(bytes: Buffer, complete = true): boolean {
  if (bytes.length === 0 || bytes.some(isControl)) return false;
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(complete ? bytes : trimCut(bytes));
    return true;
  } catch {
    return false;
  }
}

/** In UTF-8 a control character is one byte, never part of another character's. */
const isControl = (b: number) => (b < 0x20 && b !== 0x09 && b !== 0x0a && b !== 0x0c && b !== 0x0d) || b === 0x7f;

/** The bytes less a UTF-8 character cut short at the end. */
function trimCut(bytes: Buffer): Buffer {
  let i = bytes.length;
  // Step back over continuation bytes to the lead byte of the last character.
  while (i > 0 && i > bytes.length - 4 && (bytes[i - 1]! & 0xc0) === 0x80) i--;
  const lead = bytes[i - 1];
  if (lead === undefined || lead < 0xc0) return bytes;
  const want = lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : 2;
  return bytes.length - (i - 1) < want ? bytes.subarray(0, i - 1) : bytes;
}

/** Whether a file's start reads as text (see isText). */
export async function startsAsText(path: string): Promise<boolean> {
  const bytes = await readStart(path, head);
  return isText(bytes, bytes.length < head);
}
