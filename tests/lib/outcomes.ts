/**
 * Judging what a tool call gave, the same way wherever the whole stack is driven with many inputs (the
 * corpus sweep, the fuzzer): which tools take a kind of file, whether a result opens as what its name
 * says, whether an error keeps the contract, and what requests left behind in the work directories.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { extname, join } from 'node:path';
import sharp from 'sharp';
import { errorCodes, kindOfExtension, tools, type ErrorCode, type FileKind, type Tool } from '@quire/catalog';
import { isEncrypted, qpdfCheck } from './pdf.ts';

/** Every catalog tool that takes a file of this kind. */
export function toolsFor(kind: FileKind): Tool[] {
  return (tools as readonly Tool[]).filter((t) => 'kinds' in t.input && t.input.kinds.includes(kind));
}

/** Options a tool cannot run without. */
export const requiredFields: Record<string, Record<string, string>> = {
  'pdf-page-remove': { pages: '1' },
  'protect-pdf': { userPassword: 'quire-test-password' },
  // The first page twice, the second time turned: a plan any PDF has the pages for.
  'organize-pdf': { plan: '1,1r90' },
  // No field named: any PDF's form (or none) is drawn again as its values say.
  'fill-pdf-form': { values: '{}' },
  // E-mail addresses wherever they are, and a box on the first page, which every PDF has.
  'redact-pdf': { emails: 'true', boxes: '[{"page": 1, "x": 0.1, "y": 0.1, "width": 0.3, "height": 0.1}]' },
};

/**
 * A file a tool cannot run without besides the one it is given: Sign PDF signs a PDF with a signature
 * image (a dark stroke on a transparent PNG), sent after it.
 */
export async function companionFile(tool: Tool, kind: FileKind | undefined): Promise<Blob | undefined> {
  if (tool.id !== 'sign-pdf' || kind !== 'pdf') return undefined;
  const svg =
    '<svg xmlns="http://www.w3.org/2000/svg" width="300" height="100"><path d="M10 80 L150 20 L290 80" stroke="#000" stroke-width="8" fill="none"/></svg>';
  return new Blob([new Uint8Array(await sharp(Buffer.from(svg)).png().toBuffer())], { type: 'image/png' });
}

/**
 * The password a tool's result opens with, from the fields sent, when the tool makes protected PDFs
 * (its catalog checks name the option); undefined otherwise.
 */
export function resultPassword(tool: Tool, fields: Record<string, string>): string | undefined {
  const option = tool.checks.encrypted?.password;
  return option === undefined ? undefined : fields[option];
}

/** The part an Office package cannot be without, by kind. */
const mainPart: Partial<Record<FileKind, string>> = {
  docx: 'word/document.xml',
  xlsx: 'xl/workbook.xml',
  pptx: 'ppt/presentation.xml',
};

function zipEntries(path: string): string[] | string {
  const test = spawnSync('unzip', ['-tqq', path], { timeout: 60_000 });
  if (test.status !== 0) return `unzip -t says ${test.status}`;
  return spawnSync('unzip', ['-Z1', path], { encoding: 'utf8', timeout: 60_000 }).stdout.split('\n').filter(Boolean);
}

/**
 * Why a result does not open as the kind its name says, or undefined when it does; a protected PDF is
 * opened with its `password` (see resultPassword).
 */
export async function opens(path: string, kind: FileKind | undefined, password?: string): Promise<string | undefined> {
  switch (kind) {
    case 'pdf': {
      if (password !== undefined && !isEncrypted(path)) return 'the PDF is not protected';
      const pw = password === undefined ? [] : [`--password=${password}`];
      if (![0, 3].includes(qpdfCheck(path, password))) return 'the PDF does not pass qpdf --check';
      // A result may be the upload itself (pdf-compress never answers larger): qpdf may still warn (exit 3).
      return Number(spawnSync('qpdf', [...pw, '--show-npages', path], { encoding: 'utf8' }).stdout) > 0
        ? undefined
        : 'the PDF has no pages';
    }
    case 'docx':
    case 'xlsx':
    case 'pptx': {
      const list = zipEntries(path);
      if (typeof list === 'string') return list;
      if (!list.includes('[Content_Types].xml')) return 'no [Content_Types].xml';
      return list.includes(mainPart[kind]!) ? undefined : `no ${mainPart[kind]}`;
    }
    case 'zip':
      return zipOpens(path);
    case 'jpeg':
    case 'png':
      try {
        const m = await sharp(path).metadata();
        return m.width && m.height ? undefined : 'an image without a size';
      } catch (err) {
        return `the image does not decode: ${(err as Error).message}`;
      }
    case 'txt':
    case 'md':
      try {
        new TextDecoder('utf-8', { fatal: true }).decode(readFileSync(path));
        return undefined;
      } catch {
        return 'not UTF-8 text';
      }
    case 'html':
      return /<html/i.test(readFileSync(path, 'utf8')) ? undefined : 'no <html>';
    default:
      return `an unexpected kind of result (${kind})`;
  }
}

/** A zip of results (pages, images): at least one entry, and each opens as its name says. */
async function zipOpens(path: string): Promise<string | undefined> {
  const list = zipEntries(path);
  if (typeof list === 'string') return list;
  if (list.length === 0) return 'an empty zip';
  const dir = mkdtempSync(join(tmpdir(), 'quire-entries-'));
  try {
    const out = spawnSync('unzip', ['-qq', '-o', path, '-d', dir], { timeout: 60_000 });
    if (out.status !== 0) return `unzip says ${out.status}`;
    for (const name of list) {
      const why = await opens(join(dir, name), kindOfExtension(extname(name).slice(1)));
      if (why) return `entry ${name}: ${why}`;
    }
    return undefined;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export interface Answer {
  status: number;
  body: { download?: string; error?: { code: string; message: string } };
}

/** What is wrong with an error answer's shape: its code, its status, its one clean sentence. */
export function contractProblem(o: Answer): string | undefined {
  const error = o.body.error;
  const code = error?.code as ErrorCode;
  if (!error || Object.keys(o.body).join() !== 'error' || !Object.hasOwn(errorCodes, code))
    return 'not the contract error shape';
  if (errorCodes[code].status !== o.status) return `${code} with status ${o.status}`;
  if (!/^[^\n]{10,300}$/.test(error.message) || /\/(tmp|work|usr|home)\/|\bat \w+ \(/.test(error.message))
    return 'a message that is not one clean sentence';
  return undefined;
}

/**
 * What requests left in the work directory: each process has a root there and each request a folder in
 * it. The renderer's warm browser keeps one folder of its own there (`chromium-…`) while it runs.
 */
export function leftovers(work: string): string[] {
  const left = readdirSync(work).flatMap((root) => readdirSync(join(work, root)).map((e) => `${root}/${e}`));
  const browsers = left.filter((e) => e.startsWith('renderer/chromium-'));
  return browsers.length <= 1 ? left.filter((e) => !browsers.includes(e)) : left;
}

/**
 * Polls until the work directory holds nothing a request left, for up to `ms` (a bound that only a leak
 * reaches: a request's folder goes just after its answer); returns what is left.
 */
export async function settledLeftovers(work: string, ms = 30_000): Promise<string[]> {
  for (const end = Date.now() + ms; leftovers(work).length > 0 && Date.now() < end;) {
    await new Promise((r) => setTimeout(r, 100));
  }
  return leftovers(work);
}
