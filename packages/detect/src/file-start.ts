import { open } from 'node:fs/promises';

/** A file's first `bytes` bytes, or all of it when it is shorter: what a file is shows there. */
export async function readStart(path: string, bytes: number): Promise<Buffer> {
  const fh = await open(path, 'r');
  try {
    const buf = Buffer.alloc(bytes);
    const { bytesRead } = await fh.read(buf, 0, bytes, 0);
    return buf.subarray(0, bytesRead);
  } finally {
    await fh.close();
  }
}
