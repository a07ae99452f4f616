/**
 * Logs as an operator reads them, from a stack of its own (nginx, the gateway, pdf-editor) logging at
 * the usual level: a request is followed by its id through every hop, every line is JSON, and neither
 * a password nor the text of a file ever reaches a log.
 */
import { randomUUID } from 'node:crypto';
import { readdir, readFile, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { corpusFiles } from '../lib/corpus.ts';
import { download, post } from '../lib/http.ts';
import { text, words } from '../lib/pdf.ts';
import { startScratchStack, type ScratchStack } from '../lib/stack.ts';

const locked = corpusFiles().find((f) => f.file === 'pdf-encrypted/pypdf-libreoffice-writer-password.pdf')!;
const password = locked.userPassword!;
/** The longest word of the document's text: what must never be logged of its content. */
const secretWord = words(text(locked.path, { password })).reduce((a, b) => (b.length > a.length ? b : a));
const wrongPassword = `not-${randomUUID()}`;
const requestId = `ops-logs-${randomUUID()}`;
const failedId = `ops-logs-failed-${randomUUID()}`;

interface Line {
  file: string;
  raw: string;
  json?: Record<string, unknown>;
}

describe('logs of a run with a password', () => {
  let stack: ScratchStack;
  const lines: Line[] = [];
  let downloads: string | undefined;
  /** The stored result's name: whoever has it can download the file while it lives. */
  let resultName = '';

  beforeAll(async () => {
    stack = await startScratchStack('logs', {
      portOffset: 21_500,
      services: ['pdf-editor'],
      authEmulator: false,
      env: { LOG_LEVEL: 'info' },
    });
    const unlock = (pw: string, id: string) =>
      post(`${stack.url}/api.php?tool=pdf-unlock`, [locked.path], { password: pw }, { 'X-Request-Id': id });
    const ok = await unlock(password, requestId);
    expect(ok.headers.get('x-request-id')).toBe(requestId);
    resultName = ok.body.download!;
    const { path } = await download(stack.url, resultName);
    downloads = dirname(path);
    // The content went through: the result opens without a password and says the same.
    expect(words(text(path))).toContain(secretWord);
    const failed = await unlock(wrongPassword, failedId);
    expect(failed.body.error?.code).toBe('wrong_password');
    // nginx writes a request's line once it has finished with it, which may be just after the client
    // has its answer: the lines are waited for, then the stack is stopped so that every line is written.
    const accessLog = join(stack.logDir, 'nginx-access.log');
    for (const end = Date.now() + 60_000; Date.now() < end;) {
      const written = await readFile(accessLog, 'utf8').catch(() => '');
      if (written.includes(requestId) && written.includes(failedId)) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    await stack.stop();
    for (const file of await readdir(stack.logDir)) {
      for (const raw of (await readFile(join(stack.logDir, file), 'utf8')).split('\n')) {
        if (raw === '') continue;
        let json: Record<string, unknown> | undefined;
        try {
          json = JSON.parse(raw) as Record<string, unknown>;
        } catch {
          // reported below
        }
        lines.push({ file, raw, json });
      }
    }
  });

  afterAll(async () => {
    await stack?.remove();
    if (downloads) await rm(downloads, { recursive: true, force: true });
  });

  it('writes only JSON lines, one object each', () => {
    expect(lines.length).toBeGreaterThan(0);
    expect(
      lines.filter((l) => typeof l.json !== 'object' || l.json === null).map((l) => `${l.file}: ${l.raw}`),
    ).toEqual([]);
  });

  it('follows each request by its id through nginx, the gateway and pdf-editor', () => {
    for (const [id, outcome, status] of [
      [requestId, 'ok', 200],
      [failedId, 'wrong_password', 400],
    ] as const) {
      const mine = lines.filter((l) => l.json?.requestId === id);
      expect(new Set(mine.map((l) => l.file))).toEqual(new Set(['nginx-access.log', 'gateway.log', 'pdf-editor.log']));
      const nginx = mine.find((l) => l.file === 'nginx-access.log')!.json!;
      expect(nginx).toMatchObject({ service: 'nginx', method: 'POST', uri: '/api.php?tool=pdf-unlock', status });
      for (const file of ['gateway.log', 'pdf-editor.log']) {
        const done = mine.filter((l) => l.file === file && l.json?.message === 'tool request').map((l) => l.json);
        expect(done, file).toEqual([expect.objectContaining({ tool: 'pdf-unlock', outcome })]);
      }
    }
  });

  it('never logs a password, the text of a file or the name it is downloaded by', () => {
    expect(lines.some((l) => l.json?.uri === '/uploads/[hidden]')).toBe(true);
    for (const secret of [password, wrongPassword, secretWord, resultName.slice(0, 32)]) {
      expect(lines.filter((l) => l.raw.includes(secret)).map((l) => `${l.file}: ${l.raw}`)).toEqual([]);
    }
  });
});
