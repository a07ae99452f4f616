import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The shared corpus beside the project: read-only documents written by others. */
export const corpusDir = new URL('../../../shared/corpus/', import.meta.url).pathname;

export interface CorpusFile {
  path: string;
  file: string;
  folder: string;
  special: string;
  /** What the manifest records of it: PDF version, pages, encryption; for damaged files, what qpdf --check says. */
  properties: string;
  /** The user password, '' for an empty one, undefined when there is none or it is unpublished. */
  userPassword?: string;
  ownerPassword?: string;
  pages?: number;
  encrypted: boolean;
  /** The manifest names a password for it, published or not: it is protected (a PDF may still open without one). */
  locked: boolean;
}

function passwords(field: string): { user?: string; owner?: string } {
  const out: { user?: string; owner?: string } = {};
  for (const part of field.split(';')) {
    const m = /^(user|owner)=(.*)$/.exec(part);
    if (!m || m[2] === '?') continue;
    out[m[1] as 'user' | 'owner'] = m[2] === '(empty)' ? '' : m[2];
  }
  return out;
}

/** Every row of MANIFEST.tsv, with the passwords and page counts it records. */
export function corpusFiles(): CorpusFile[] {
  const [header, ...rows] = readFileSync(join(corpusDir, 'MANIFEST.tsv'), 'utf8').trimEnd().split('\n');
  const cols = header!.split('\t');
  return rows.map((row) => {
    const cells = Object.fromEntries(row.split('\t').map((v, i) => [cols[i], v])) as Record<string, string>;
    const pw = passwords(cells.passwords ?? '');
    const pages = /(\d+) pages?/.exec(cells.properties ?? '')?.[1];
    return {
      path: join(corpusDir, cells.path!),
      file: cells.path!,
      folder: cells.path!.split('/')[0]!,
      special: cells.special ?? '',
      properties: cells.properties ?? '',
      userPassword: pw.user,
      ownerPassword: pw.owner,
      pages: pages ? Number(pages) : undefined,
      encrypted: /encrypted/.test(cells.properties ?? ''),
      locked: /(user|owner)=/.test(cells.passwords ?? ''),
    };
  });
}

export function corpusFolder(folder: string, ext = '.pdf'): CorpusFile[] {
  return corpusFiles().filter((f) => f.folder === folder && f.file.endsWith(ext));
}
