import { createWriteStream } from 'node:fs';
import { finished } from 'node:stream/promises';
import yazl from 'yazl';

export interface ZipWriter {
  /** Queues a file on disk; entries are written in the order added, read from disk as they go. */
  add(path: string, name: string): void;
  /** Ends the archive and resolves once it is fully on disk. */
  close(): Promise<void>;
  /** Gives up on the archive, closing its file. */
  abort(): void;
}

/**
 * A ZIP written while it is being filled, so files can be added as soon as they exist. PDFs are
 * stored, not deflated: their streams are compressed already and deflating again costs more time
 * than it saves bytes.
 */
export function createZip(path: string): ZipWriter {
  const zip = new yazl.ZipFile();
  const out = createWriteStream(path);
  const done = finished(zip.outputStream.pipe(out));
  done.catch(() => undefined); // reported by close(); an aborted archive has no one to report to
  let failure: unknown;
  let aborted = false;
  zip.on('error', (err: unknown) => {
    failure ??= err;
    out.destroy(err instanceof Error ? err : new Error(String(err)));
  });
  return {
    add(file, name) {
      if (!aborted) zip.addFile(file, name, { compress: false });
    },
    async close() {
      zip.end();
      await done;
      if (failure) throw failure;
    },
    abort() {
      aborted = true;
      zip.outputStream.unpipe(out);
      out.destroy();
    },
  };
}
