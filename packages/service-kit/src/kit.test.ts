import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ToolError, toToolError } from './errors.ts';
import { exec } from './exec.ts';
import { JobQueue } from './queue.ts';
import { sniffKind } from './sniff.ts';
import { safeName } from './upload.ts';
import { isPublicAddress } from './url.ts';
import { detectZipKind } from './zip.ts';

const corpus = new URL('../../../../shared/corpus/', import.meta.url).pathname;

/** Running, as opposed to gone or a zombie waiting for its reaper. */
function alive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return !/^\d+ \(.*\) Z/.test(stat);
  } catch {
    return false;
  }
}

describe('exec', () => {
  it('returns output and exit code', async () => {
    const r = await exec('sh', ['-c', 'echo hi; echo oops >&2; exit 3'], { timeoutMs: 5000 });
    expect(r).toEqual({ code: 3, stdout: 'hi\n', stderr: 'oops\n' });
  });

  it('kills the whole process group on timeout', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'exec-'));
    const pidFile = join(dir, 'child');
    // The time limit leaves the shell time to start its child and write its pid, even on a busy machine.
    const started = exec('sh', ['-c', `sleep 60 & echo $! > ${pidFile}; wait`], { timeoutMs: 2000 });
    await expect(started).rejects.toMatchObject({ code: 'timeout' });
    const child = Number(execFileSync('cat', [pidFile]).toString());
    // SIGKILL is sent before the rejection; the child is gone once the kernel has run its exit. Left
    // alive, it would sleep on for a minute, well past this bound.
    for (const end = Date.now() + 20_000; alive(child) && Date.now() < end;)
      await new Promise((r) => setTimeout(r, 50));
    expect(alive(child)).toBe(false);
  });

  it('stops on abort', async () => {
    const ac = new AbortController();
    const p = exec('sleep', ['30'], { timeoutMs: 10_000, signal: ac.signal });
    ac.abort(new ToolError('timeout', 'cancelled'));
    await expect(p).rejects.toMatchObject({ code: 'timeout', message: 'cancelled' });
  });

  it('reports a missing program as internal', async () => {
    await expect(exec('/no/such/program', [], { timeoutMs: 1000 })).rejects.toMatchObject({ code: 'internal' });
  });
});

describe('JobQueue', () => {
  it('runs at most N at once, lets M wait, and answers busy beyond with Retry-After', async () => {
    const q = new JobQueue(1, 1);
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    let running = 0;
    let peak = 0;
    const job = async () => {
      running++;
      peak = Math.max(peak, running);
      await gate;
      running--;
      return 'done';
    };
    const a = q.run(job);
    const b = q.run(job);
    const c = q.run(job).catch((e: ToolError) => e);
    const busy = await c;
    expect(busy).toBeInstanceOf(ToolError);
    expect((busy as ToolError).code).toBe('busy');
    expect((busy as ToolError).headers['Retry-After']).toBeDefined();
    release();
    expect(await Promise.all([a, b])).toEqual(['done', 'done']);
    expect(peak).toBe(1);
    expect(q.size).toBe(0);
    expect(q.active).toBe(0);
  });
});

describe('sniffKind', () => {
  it.each([
    ['pdf/qpdf-11-pages.pdf', 'pdf'],
    ['pdf-broken/qpdf-leading-junk.pdf', 'pdf'],
    ['pdf-broken/renamed-docx-as.pdf', 'docx'],
    ['pdf-broken/renamed-html-as.pdf', 'html'],
    ['pdf-broken/renamed-png-as.pdf', 'png'],
    ['pdf-broken/pdfplumber-zero-byte.pdf', undefined],
    ['pdf-broken/qpdf-not-even-a-pdf.pdf', undefined],
    ['images/pillow-hopper.jpg', 'jpeg'],
    ['images/pillow-hopper.bmp', 'bmp'],
    ['images/pillow-hopper.webp', 'webp'],
    ['images/pillow-hopper.tif', 'tiff'],
    ['office/jod-test.xlsx', 'xlsx'],
    ['office/jod-test.rtf', 'rtf'],
  ])('%s is %s', async (file, kind) => {
    expect(await sniffKind(join(corpus, file))).toBe(kind);
  });

  it('tells a page-and-assets zip from any other zip', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'zip-'));
    writeFileSync(join(dir, 'index.html'), '<p>hi</p>');
    writeFileSync(join(dir, 'other.txt'), 'x');
    execFileSync('python3', [
      '-c',
      `import zipfile,sys
z=zipfile.ZipFile(sys.argv[1],'w'); z.write(sys.argv[2],'index.html'); z.close()
z=zipfile.ZipFile(sys.argv[3],'w'); z.write(sys.argv[4],'other.txt'); z.close()`,
      join(dir, 'a.zip'),
      join(dir, 'index.html'),
      join(dir, 'b.zip'),
      join(dir, 'other.txt'),
    ]);
    expect(await detectZipKind(join(dir, 'a.zip'))).toBe('html-zip');
    expect(await detectZipKind(join(dir, 'b.zip'))).toBe('zip');
    expect(await detectZipKind(join(dir, 'index.html'))).toBeUndefined();
  });
});

describe('isPublicAddress', () => {
  it.each([
    ['8.8.8.8', true],
    ['2606:4700:4700::1111', true],
    ['127.0.0.1', false],
    ['10.0.0.1', false],
    ['172.16.5.4', false],
    ['192.168.1.1', false],
    ['169.254.169.254', false],
    ['100.64.0.1', false],
    ['0.0.0.0', false],
    ['224.0.0.1', false],
    ['255.255.255.255', false],
    ['::1', false],
    ['::', false],
    ['fc00::1', false],
    ['fe80::1', false],
    ['::ffff:127.0.0.1', false],
    ['::ffff:10.0.0.1', false],
    ['::7f00:1', false],
    ['::808:808', false],
    ['::127.0.0.1', false],
    ['64:ff9b::7f00:1', false],
    ['2002:7f00:1::1', false],
    ['not-an-ip', false],
  ])('%s → %s', (ip, expected) => {
    expect(isPublicAddress(ip)).toBe(expected);
  });
});

describe('safeName', () => {
  it.each([
    ['report.pdf', 'report.pdf'],
    ['../../etc/passwd', 'passwd'],
    ['C:\\Users\\me\\doc.docx', 'doc.docx'],
    ['<script>alert(1)</script>.pdf', 'script.pdf'],
    ['<img src=x onerror=alert(1)>.pdf', 'img-src-x-onerror-alert-1.pdf'],
    ['résumé 2024.pdf', 'résumé-2024.pdf'],
    ['...', 'document'],
    ['', 'document'],
    ['.htaccess', 'htaccess'],
  ])('%s → %s', (input, expected) => {
    expect(safeName(input)).toBe(expected);
  });
});

describe('toToolError', () => {
  it('maps upload limits and hides everything else as internal', () => {
    expect(toToolError({ code: 'LIMIT_FILE_SIZE' }).code).toBe('file_too_large');
    const e = toToolError(new Error('/secret/path exploded'));
    expect(e.code).toBe('internal');
    expect(JSON.stringify(e.toBody())).not.toContain('secret');
  });
});
