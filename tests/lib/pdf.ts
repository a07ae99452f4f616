import { execFileSync, spawnSync } from 'node:child_process';

/** Facts about a PDF, read with qpdf and poppler: what the tests check outputs against. */
export function pageCount(path: string, password?: string): number {
  return Number(
    execFileSync('qpdf', [...(password !== undefined ? [`--password=${password}`] : []), '--show-npages', path])
      .toString()
      .trim(),
  );
}

/** qpdf --check (of a protected PDF, with its password): 0 fine, 3 warnings; anything else means the file does not open. */
export function qpdfCheck(path: string, password?: string): number {
  const pw = password === undefined ? [] : [`--password=${password}`];
  return spawnSync('qpdf', ['--check', ...pw, path], { stdio: 'ignore' }).status ?? -1;
}

export function isEncrypted(path: string): boolean {
  // Exit 2: not encrypted at all.
  return spawnSync('qpdf', ['--requires-password', path], { stdio: 'ignore' }).status !== 2;
}

export function text(path: string, opts: { first?: number; last?: number; password?: string } = {}): string {
  const args = ['-q', '-enc', 'UTF-8'];
  if (opts.first) args.push('-f', String(opts.first));
  if (opts.last) args.push('-l', String(opts.last));
  if (opts.password !== undefined) args.push('-upw', opts.password);
  return execFileSync('pdftotext', [...args, path, '-'], { maxBuffer: 64 * 1024 * 1024 }).toString();
}

/** Words of a text, for comparisons that do not care about layout. */
export function words(s: string): string[] {
  return s.split(/\s+/).filter(Boolean);
}

/** Each page's rotation in degrees, as a reader shows it. */
export function rotations(path: string): number[] {
  const out = execFileSync('pdfinfo', ['-f', '1', '-l', '100000', path]).toString();
  return [...out.matchAll(/^Page\s+\d+ rot:\s+(\d+)/gm)].map((m) => Number(m[1]));
}

export function info(path: string): Record<string, string> {
  const out = execFileSync('pdfinfo', [path]).toString();
  return Object.fromEntries(
    out
      .split('\n')
      .map((l) => /^([^:]+):\s*(.*)$/.exec(l))
      .filter((m): m is RegExpExecArray => m !== null)
      .map((m) => [m[1]!.trim(), m[2]!.trim()]),
  );
}
