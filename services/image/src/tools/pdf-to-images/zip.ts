import { createWriteStream } from 'node:fs';
import { finished } from 'node:stream/promises';
import yazl from 'yazl';

export interface ZipWriter {
  /** Queues a file on disk; entries are written in the order added, read from disk as they go. */
  add(path: string, name: string): void;
  /** Ends the archive and resolves once it is fully on disk. */
  close(): Promise<void>;
  /** Gives up on the archive and waits until its file is closed. */
  abort(): Promise<void>;
}

/**
 * A ZIP written while it is being filled. PNG and JPEG are compressed already, so entries are stored:
 * deflating them again costs time and saves next to nothing.
 */
export function createZip(path: string): ZipWriter {
  const zip = new yazl.ZipFile();
  const out = createWriteStream(path);
  const done = finished(zip.outputStream.pipe(out));
  done.catch(() => undefined); // reported by close()
  let failure: unknown;
  zip.on('error', (err: unknown) => {
    failure ??= err;
    out.destroy(err instanceof Error ? err : new Error(String(err)));
  });
  return {
    add(file, name) {
      zip.addFile(file, name, { compress: false });
    },
    async close() {
      zip.end();
      await done;
      if (failure) throw failure;
    },
    async abort() {
      zip.outputStream.unpipe(out);
      out.destroy();
      await new Promise<void>((resolve) => (out.closed ? resolve() : out.once('close', () => resolve())));
    },
  };
}
