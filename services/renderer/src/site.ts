import { readFile } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import yauzl from 'yauzl';
import { ToolError } from '@quire/base';
import type { ToolInput } from '@quire/http';

export interface SiteLimits {
  maxEntries: number;
  maxBytes: number;
}

/** A page and its assets by path ('index.html', 'css/site.css'...), held in memory, never on disk. */
export type SiteFiles = Map<string, Buffer>;

const unsafe = () =>
  new ToolError(
    'damaged_input',
    'The zip holds a file with an unsafe name or a link. Please zip only the page and the files it uses.',
  );
const tooBig = (limits: SiteLimits) =>
  new ToolError(
    'file_too_large',
    `The zip unpacks to too much: at most ${limits.maxEntries} files and ${Math.round(limits.maxBytes / 1024 / 1024)} MB in all.`,
  );
const unreadable = (cause: unknown) => new ToolError('damaged_input', 'The zip could not be read.', { cause });

/** The upload as a site: one HTML file becomes index.html; a zip is unpacked safely into memory. */
export async function readSite(input: ToolInput, limits: SiteLimits): Promise<SiteFiles> {
  if (input.kind === 'html') return new Map([['index.html', await readFile(input.path)]]);
  return unzipSite(input.path, limits);
}

/** Unix file type bits of a zip entry made on Unix; a symbolic link is 0o120000. */
function isLink(entry: yauzl.Entry): boolean {
  return ((entry.externalFileAttributes >>> 16) & 0o170000) === 0o120000;
}

/**
 * Unpacks a zip into memory, refusing what could escape or explode: absolute names, `..` segments,
 * drive letters, NUL bytes, symbolic links and encrypted entries (`damaged_input`), and more entries
 * or more unpacked bytes than the limits, whether declared or found while inflating (`file_too_large`).
 */
export function unzipSite(path: string, limits: SiteLimits): Promise<SiteFiles> {
  return new Promise<SiteFiles>((resolve, reject) => {
    yauzl.open(
      path,
      { lazyEntries: true, autoClose: true, decodeStrings: true, strictFileNames: false, validateEntrySizes: true },
      (err, zip) => {
        if (err || !zip) return reject(unreadable(err));
        const files: SiteFiles = new Map();
        let entries = 0;
        let declared = 0;
        let settled = false;
        const fail = (error: ToolError) => {
          if (settled) return;
          settled = true;
          zip.close();
          reject(error);
        };
        if (zip.entryCount > limits.maxEntries) return fail(tooBig(limits));
        zip.on('error', (e: Error) => {
          // yauzl itself refuses absolute and `..` names; say so rather than "unreadable".
          fail(/absolute path|invalid relative path|invalid characters/i.test(e.message) ? unsafe() : unreadable(e));
        });
        zip.on('end', () => {
          if (settled) return;
          settled = true;
          resolve(files);
        });
        zip.on('entry', (entry: yauzl.Entry) => {
          if (settled) return;
          const name = entry.fileName.replace(/^(\.\/)+/, '');
          if (++entries > limits.maxEntries) return fail(tooBig(limits));
          if (
            name.startsWith('/') ||
            /^[a-z]:/i.test(name) ||
            name.includes('\0') ||
            name.includes('\\') ||
            name.split('/').some((part) => part === '..') ||
            isLink(entry)
          ) {
            return fail(unsafe());
          }
          if (name.endsWith('/')) return zip.readEntry(); // a folder
          if (entry.generalPurposeBitFlag & 0x1) {
            return fail(
              new ToolError('damaged_input', 'The zip is encrypted. Please upload a zip without a password.'),
            );
          }
          declared += entry.uncompressedSize;
          if (declared > limits.maxBytes) return fail(tooBig(limits));
          zip.openReadStream(entry, (streamErr, stream) => {
            if (streamErr || !stream) return fail(unreadable(streamErr));
            readAll(stream, entry.uncompressedSize).then(
              (body) => {
                if (!files.has(name)) files.set(name, body);
                zip.readEntry();
              },
              (e: unknown) =>
                // An entry that inflates past its declared size is a bomb that lies about itself.
                fail(/too many bytes|too few bytes/i.test(String(e)) ? tooBig(limits) : unreadable(e)),
            );
          });
        });
        zip.readEntry();
      },
    );
  });
}

function readAll(stream: Readable, expected: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    stream.on('data', (chunk: Buffer) => {
      size += chunk.length;
      // yauzl checks this too (validateEntrySizes); stopping here keeps memory bounded regardless.
      if (size > expected) stream.destroy(new Error('too many bytes in the stream'));
      else chunks.push(chunk);
    });
    stream.on('error', reject);
    stream.on('end', () => resolve(Buffer.concat(chunks)));
  });
}
