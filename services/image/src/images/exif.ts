/** The Orientation tag (1–8) of raw EXIF data (with or without its "Exif\0\0" prefix), if any. */
export function exifOrientation(exif: Buffer): number | undefined {
  let tiff = exif;
  if (tiff.toString('latin1', 0, 6) === 'Exif\0\0') tiff = tiff.subarray(6);
  if (tiff.length < 8) return undefined;
  const order = tiff.toString('latin1', 0, 2);
  if (order !== 'II' && order !== 'MM') return undefined;
  const le = order === 'II';
  const u16 = (at: number) => (le ? tiff.readUInt16LE(at) : tiff.readUInt16BE(at));
  const u32 = (at: number) => (le ? tiff.readUInt32LE(at) : tiff.readUInt32BE(at));
  const ifd = u32(4);
  if (ifd + 2 > tiff.length) return undefined;
  const count = u16(ifd);
  for (let i = 0; i < count; i++) {
    const entry = ifd + 2 + i * 12;
    if (entry + 12 > tiff.length) return undefined;
    if (u16(entry) === 0x0112) {
      const value = u16(entry + 8);
      return value >= 1 && value <= 8 ? value : undefined;
    }
  }
  return undefined;
}

/**
 * ImageMagick keeps EXIF in a PNG text chunk, "Raw profile type exif": a name line, a length line,
 * then the bytes in hex. Pillow and ImageMagick honour its orientation, so we do too.
 */
export function orientationFromPngComments(
  comments: readonly { keyword: string; text: string }[] | undefined,
): number | undefined {
  const raw = comments?.find((c) => /^raw profile type exif$/i.test(c.keyword));
  if (!raw) return undefined;
  const lines = raw.text
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);
  // lines[0] = "exif", lines[1] = byte count, then hex.
  const hex = lines.slice(2).join('');
  if (!/^[0-9a-f]*$/i.test(hex) || hex.length < 16) return undefined;
  return exifOrientation(Buffer.from(hex, 'hex'));
}
