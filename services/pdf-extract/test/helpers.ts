import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Express } from 'express';
import { callTool, type ToolAnswer } from '@quire/service-kit/testing';

export const corpus = fileURLToPath(new URL('../../../../shared/corpus/', import.meta.url));

export type Answer = ToolAnswer;

/** Where results are saved; removed with `removeOutputs`. */
const outDir = mkdtempSync(join(tmpdir(), 'pdf-extract-test-out-'));

export const pdf = (name: string) => join(corpus, 'pdf', name);

/** Calls a tool with one file; a result is saved to a scratch file (`file`). */
export function call(app: Express, tool: string, file: string, fields: Record<string, string> = {}): Promise<Answer> {
  return callTool(app, tool, { files: [file], fields }, outDir);
}

export function removeOutputs(): void {
  rmSync(outDir, { recursive: true, force: true });
}

const unpack = `
import sys, zipfile, json, xml.etree.ElementTree as ET
z = zipfile.ZipFile(sys.argv[1])
assert z.testzip() is None
parts = {}
for n in z.namelist():
    if n.endswith('.xml') or n.endswith('.rels'):
        ET.fromstring(z.read(n))  # every XML part must parse
        parts[n] = z.read(n).decode('utf-8')
print(json.dumps(parts))
`;

/** Every XML part of an Office package, each checked to parse; throws when one does not. */
export function officeParts(file: string): Record<string, string> {
  const out = execFileSync('python3', ['-c', unpack, file], { maxBuffer: 512 * 1024 * 1024 }).toString();
  return JSON.parse(out) as Record<string, string>;
}

function decode(s: string): string {
  return s
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;|&apos;/g, "'")
    .replace(/&#(\d+);/g, (_, d: string) => String.fromCodePoint(Number(d)))
    .replace(/&#x([0-9a-f]+);/gi, (_, h: string) => String.fromCodePoint(parseInt(h, 16)))
    .replace(/&amp;/g, '&');
}

/** The text inside elements of one name (w:t, a:t, t), in document order. */
export function elementText(xml: string, tag: string): string[] {
  const re = new RegExp(`<${tag}(?:\\s[^>]*)?>([^<]*)</${tag}>`, 'g');
  return [...xml.matchAll(re)].map((m) => decode(m[1]!));
}

/** The readable text of a result, whatever its kind. */
export function resultText(file: string, kind: string): string {
  if (kind === 'txt' || kind === 'md') return readFileSync(file, 'utf8');
  if (kind === 'html')
    return decode(
      readFileSync(file, 'utf8')
        .replace(/<(script|style)[\s\S]*?<\/\1>/g, ' ')
        .replace(/<img[^>]*>/g, ' ')
        .replace(/<[^>]+>/g, ' '),
    );
  const parts = officeParts(file);
  if (kind === 'docx') return elementText(parts['word/document.xml'] ?? '', 'w:t').join(' ');
  if (kind === 'pptx')
    return Object.keys(parts)
      .filter((n) => /^ppt\/slides\/slide\d+\.xml$/.test(n))
      .sort((a, b) => Number(/\d+/.exec(a)![0]) - Number(/\d+/.exec(b)![0]))
      .map((n) => elementText(parts[n]!, 'a:t').join(' '))
      .join(' ');
  if (kind === 'xlsx') {
    const shared = elementText(parts['xl/sharedStrings.xml'] ?? '', 't');
    const sheets = Object.keys(parts).filter((n) => /^xl\/worksheets\/sheet\d+\.xml$/.test(n));
    const values = sheets.flatMap((n) => [...parts[n]!.matchAll(/<v>([^<]*)<\/v>/g)].map((m) => m[1]!));
    const inline = sheets.flatMap((n) => elementText(parts[n]!, 't'));
    return [...shared, ...inline, ...values].join(' ');
  }
  throw new Error(`no reader for ${kind}`);
}

/** pdftotext's words of a PDF: what is known to be in it. */
export function sourceWords(file: string, password?: string): string[] {
  const args = ['-q', '-enc', 'UTF-8', ...(password !== undefined ? ['-upw', password] : []), file, '-'];
  let text = '';
  try {
    text = execFileSync('pdftotext', args, { maxBuffer: 64 * 1024 * 1024 }).toString();
  } catch {
    return [];
  }
  // Right-to-left words are left out: pdftotext and pdf.js disagree on the order inside ligatures.
  return text
    .split(/\s+/)
    .filter((w) => /^\p{L}{4,}$/u.test(w) && !/[\u0590-\u08FF\uFB1D-\uFDFF\uFE70-\uFEFF]/.test(w));
}

/** Of up to n distinct words spread over the source, the share found in the output's text. */
export function wordsFound(words: string[], output: string, n = 60): { share: number; missing: string[] } {
  const distinct = [...new Set(words)];
  if (!distinct.length) return { share: 1, missing: [] };
  const step = Math.max(1, Math.floor(distinct.length / n));
  const sample = distinct.filter((_, i) => i % step === 0).slice(0, n);
  const norm = output.normalize('NFKC').replace(/\u00AD/g, '');
  const missing = sample.filter((w) => !norm.includes(w.normalize('NFKC')));
  return { share: 1 - missing.length / sample.length, missing };
}

/** Runs work over items, at most `limit` at once. */
export async function mapLimit<T, R>(items: readonly T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      while (next < items.length) {
        const i = next++;
        results[i] = await work(items[i]!);
      }
    }),
  );
  return results;
}

export interface EncryptedFile {
  path: string;
  file: string;
  /** The user password ('' for an empty one), undefined when the corpus does not publish it. */
  userPassword?: string;
}

/** The encrypted PDFs of the corpus with their passwords, from MANIFEST.tsv. */
export function encryptedCorpus(): EncryptedFile[] {
  const [header, ...rows] = readFileSync(join(corpus, 'MANIFEST.tsv'), 'utf8').trimEnd().split('\n');
  const cols = header!.split('\t');
  const out: EncryptedFile[] = [];
  for (const row of rows) {
    const cells = Object.fromEntries(row.split('\t').map((v, i) => [cols[i], v])) as Record<string, string>;
    const file = cells.path ?? '';
    if (!file.startsWith('pdf-encrypted/') || !file.endsWith('.pdf')) continue;
    const m = /(?:^|;)user=([^;]*)/.exec(cells.passwords ?? '');
    const user = m?.[1];
    out.push({
      path: join(corpus, file),
      file,
      userPassword: user === undefined || user === '?' ? undefined : user === '(empty)' ? '' : user,
    });
  }
  return out;
}
