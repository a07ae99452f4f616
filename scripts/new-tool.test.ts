/**
 * The scaffold on a scratch copy of the repository: it refuses bad requests writing nothing, writes a
 * tool that the type check passes with, and refuses the same tool twice. The copy is made from the
 * files git knows (tracked, or new and not ignored), with the installed packages linked in, not copied.
 */
import { spawn, spawnSync } from 'node:child_process';
import {
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  statSync,
  symlinkSync,
  copyFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('..', import.meta.url));
const tool = 'sample-new-tool';

let copy: string;

/** The repository's files as git lists them, copied; node_modules linked entry by entry. */
function copyRepository(to: string): void {
  const listed = spawnSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
    cwd: root,
    timeout: 30_000,
    maxBuffer: 64 * 1024 * 1024,
  });
  if (listed.status !== 0) throw new Error(`git ls-files: ${listed.stderr.toString()}`);
  for (const path of listed.stdout.toString().split('\0').filter(Boolean)) {
    const from = join(root, path);
    // Listed but gone: a file someone is deleting right now.
    if (!existsSync(from)) continue;
    mkdirSync(dirname(join(to, path)), { recursive: true });
    if (lstatSync(from).isSymbolicLink()) symlinkSync(readlinkSync(from), join(to, path));
    else copyFileSync(from, join(to, path));
  }
  // Each installed package is a link to the original, but the workspaces' own links (@quire/*) are
  // made again, relative as npm made them, so that `@quire/catalog` in the copy is the copy's catalog.
  linkModules(join(root, 'node_modules'), join(to, 'node_modules'));
  for (const manifest of listed.stdout.toString().split('\0')) {
    if (!manifest.endsWith('/package.json')) continue;
    const modules = join(root, dirname(manifest), 'node_modules');
    if (existsSync(modules)) linkModules(modules, join(to, dirname(manifest), 'node_modules'));
  }
}

function linkModules(from: string, to: string): void {
  mkdirSync(to, { recursive: true });
  for (const entry of readdirSync(from)) {
    if (entry === '@quire') {
      mkdirSync(join(to, entry));
      for (const link of readdirSync(join(from, entry))) {
        symlinkSync(readlinkSync(join(from, entry, link)), join(to, entry, link));
      }
    } else symlinkSync(join(from, entry), join(to, entry));
  }
}

/** Every file's path, size and time in the copy (node_modules left out): to see that nothing was written. */
function snapshot(dir: string, prefix = ''): string[] {
  return readdirSync(join(dir, prefix), { withFileTypes: true }).flatMap((entry) => {
    const path = join(prefix, entry.name);
    if (entry.name === 'node_modules') return [];
    if (entry.isDirectory()) return snapshot(dir, path);
    const { size, mtimeMs } = statSync(join(dir, path));
    return [`${path} ${size} ${mtimeMs}`];
  });
}

function scaffold(...args: string[]) {
  const r = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/new-tool.ts', ...args], {
    cwd: copy,
    timeout: 60_000,
    encoding: 'utf8',
  });
  return { status: r.status, out: r.stdout, err: r.stderr };
}

/** `tsc -p <project>` in the copy, run alongside others: its exit status and what it said. */
function typeCheck(project: string): Promise<{ project: string; status: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const tsc = spawn(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-p', project], {
      cwd: copy,
      timeout: 240_000,
    });
    let output = '';
    tsc.stdout.on('data', (d: Buffer) => (output += d.toString()));
    tsc.stderr.on('data', (d: Buffer) => (output += d.toString()));
    tsc.on('error', reject);
    tsc.on('close', (status) => resolve({ project, status, output }));
  });
}

beforeAll(() => {
  copy = mkdtempSync(join(tmpdir(), 'quire-new-tool-'));
  copyRepository(copy);
}, 120_000);

afterAll(() => {
  if (copy) rmSync(copy, { recursive: true, force: true });
});

describe('npm run new-tool', () => {
  it('refuses a bad id, a taken id, an unknown service and a missing one, writing nothing', () => {
    const before = snapshot(copy);
    const refusals: [string[], RegExp][] = [
      [['Sample_Tool', '--service', 'pdf-editor'], /not a tool id: use kebab-case/],
      [['pdf-merge', '--service', 'pdf-editor'], /already has a tool "pdf-merge"/],
      [['watermark-pdf', '--service', 'pdf-editor'], /already has a tool "watermark-pdf"/],
      [[tool, '--service', 'nope'], /no service "nope". The services are: pdf-editor, office, renderer, image/],
      [[tool], /^Usage: npm run new-tool/],
    ];
    for (const [args, message] of refusals) {
      const r = scaffold(...args);
      expect(r.status, args.join(' ')).toBe(1);
      expect(r.err, args.join(' ')).toMatch(message);
    }
    expect(snapshot(copy)).toEqual(before);
  });

  it('writes a tool that type-checks, and will not write it twice', async () => {
    const r = scaffold(tool, '--service', 'pdf-editor');
    expect(r.status, r.err).toBe(0);
    const folder = join(copy, 'services/pdf-editor/src/tools', tool);
    for (const file of [
      join(folder, 'index.ts'),
      join(folder, `${tool}.test.ts`),
      join(copy, 'tests/contract', `${tool}.test.ts`),
      join(copy, 'frontend/content/blog', `${tool}-guide.md`),
    ]) {
      expect(existsSync(file), file).toBe(true);
    }
    expect(readFileSync(join(folder, 'index.ts'), 'utf8')).toContain(`ToolOptions<'${tool}'>`);
    const catalog = readFileSync(join(copy, 'packages/catalog/src/tools.ts'), 'utf8');
    expect(catalog).toContain(`id: '${tool}',`);
    expect(catalog).toMatch(/^import \{[^}]*\bboolField\b[^}]*\} from '\.\/options\.ts';$/m);
    expect(readFileSync(join(copy, 'frontend/app/i18n/en.ts'), 'utf8')).toMatch(/^ {4}linearize: 'Fast web view',$/m);

    // The server side and the site, at once (each takes a core).
    const checks = await Promise.all([typeCheck('tsconfig.json'), typeCheck('frontend')]);
    for (const { project, status, output } of checks) expect(status, `tsc -p ${project}\n${output}`).toBe(0);

    const again = scaffold(tool, '--service', 'pdf-editor');
    expect(again.status).toBe(1);
    expect(again.err).toMatch(`already has a tool "${tool}"`);
  }, 300_000);
});
