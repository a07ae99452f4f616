import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ToolError, toToolError } from './errors.ts';
import { exec } from './exec.ts';
import { safeName } from './names.ts';

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

  it('starts programs from a small helper process, started again when it stops, its programs killed with it', async () => {
    const parentOf = async () => Number((await exec('sh', ['-c', 'echo $PPID'], { timeoutMs: 5000 })).stdout);
    const helper = await parentOf();
    expect(helper).not.toBe(process.pid);
    expect(await parentOf()).toBe(helper); // one helper for every program
    const rss = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${helper}/status`, 'utf8'))?.[1]) / 1024;
    expect(rss).toBeLessThan(80); // small, so its forks are cheap

    const dir = mkdtempSync(join(tmpdir(), 'exec-'));
    const pidFile = join(dir, 'child');
    const running = exec('sh', ['-c', `sleep 60 & echo $! > ${pidFile}; wait`], { timeoutMs: 30_000 });
    const written = () => existsSync(pidFile) && readFileSync(pidFile, 'utf8').endsWith('\n');
    for (const end = Date.now() + 10_000; !written() && Date.now() < end;) await new Promise((r) => setTimeout(r, 20));
    process.kill(helper, 'SIGKILL');
    await expect(running).rejects.toMatchObject({ code: 'internal' });
    const child = Number(readFileSync(pidFile, 'utf8'));
    for (const end = Date.now() + 20_000; alive(child) && Date.now() < end;)
      await new Promise((r) => setTimeout(r, 50));
    expect(alive(child)).toBe(false);
    const next = await parentOf();
    expect(next).not.toBe(helper);
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
