import { execFileSync } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorCodes } from '@quire/catalog';
import { errorPages, renderNginxConfig, renderTemplate } from '../infra/nginx/render.ts';
import { findNginx, startStack } from './stack.ts';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'quire-stack-test-'));
  await writeFile(join(dir, 'index.html'), '<!doctype html><title>t</title>');
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('renderTemplate', () => {
  it('fills placeholders and leaves nginx variables alone', () => {
    expect(renderTemplate('listen ${PORT}; set $x $uri;', { PORT: '80' })).toBe('listen 80; set $x $uri;');
  });

  it('names every placeholder that has no value', () => {
    expect(() => renderTemplate('${A} ${B} ${A}', {})).toThrow('needs a value for A, B');
  });
});

describe('the nginx config', () => {
  it('renders from the template into a config nginx accepts', async () => {
    const settings = {
      runDir: dir,
      staticRoot: dir,
      listenHost: '127.0.0.1',
      port: 28_999,
      gateways: ['127.0.0.1:23100', '127.0.0.1:23200'],
      uploadLimitMb: 7,
      jobTimeoutMs: 120_000,
      rateLimitPerMinute: 30,
      accessLog: join(dir, 'access.log'),
    };
    const conf = await renderNginxConfig(settings);
    expect(conf).toContain('client_max_body_size 7m;');
    expect(conf).toContain('proxy_read_timeout 180s;');
    expect(conf).toMatch(/server 127\.0\.0\.1:23100;\s+server 127\.0\.0\.1:23200;/);
    expect(conf).toContain('limit_req zone=quire_tools burst=29 nodelay;');
    expect(conf).toContain('rate=30r/m;');
    expect(await renderNginxConfig({ ...settings, rateLimitPerMinute: 0 })).not.toContain('limit_req zone=');
    expect(conf).not.toMatch(/\$\{[A-Z_]+\}/);
    expect(conf).toMatch(/script-src 'self';/);
    // With a built site in the static root, its inline scripts are allowed by their hashes, and nothing else.
    await writeFile(join(dir, '.csp-script-hashes'), "'sha256-AbC='");
    const withTheme = await renderNginxConfig(settings);
    expect(withTheme).toContain("script-src 'self' 'sha256-AbC=';");
    await rm(join(dir, '.csp-script-hashes'));
    const withTags = await renderNginxConfig({ ...settings, tagManager: true });
    expect(withTags).toContain("script-src 'self' https://www.googletagmanager.com;");
    // Sign-in: locally the Auth emulator's origin for its REST calls, and nothing else of Google's.
    const local = await renderNginxConfig({ ...settings, auth: { emulatorOrigin: 'http://127.0.0.1:19099' } });
    expect(local).toContain("connect-src 'self' http://127.0.0.1:19099;");
    expect(local).toMatch(/script-src 'self';/);
    expect(local).toContain("frame-src 'self' blob:;");
    expect(local).not.toContain('googleapis');
    // A real Firebase project: Google's endpoints, the popup's script and frame, profile photos.
    const real = await renderNginxConfig({ ...settings, auth: { authDomain: 'quire-prod.firebaseapp.com' } });
    expect(real).toContain("script-src 'self' https://apis.google.com;");
    expect(real).toContain(
      "connect-src 'self' https://identitytoolkit.googleapis.com https://securetoken.googleapis.com;",
    );
    expect(real).toContain("frame-src 'self' blob: https://quire-prod.firebaseapp.com;");
    expect(real).toContain("img-src 'self' data: blob: https://*.googleusercontent.com;");
    // Without sign-in (or tags), the policy is the site's own.
    expect(conf).toContain("connect-src 'self';");
    expect(conf).toContain("frame-src 'self' blob:;");
    // What nginx itself refuses is answered with the catalog's status and body.
    for (const [code, status] of [
      ['file_too_large', 413],
      ['rate_limited', 429],
      ['not_available', 503],
      ['timeout', 504],
    ] as const) {
      expect(errorCodes[code].status).toBe(status);
      const body = JSON.stringify({ error: { code, message: errorCodes[code].message } });
      expect(conf).toContain(`location @${code} {`);
      expect(conf).toContain(`return ${status} '${body}';`);
    }
    expect(conf).toMatch(/error_page 502 503 =503 @not_available;/);
    await writeFile(join(dir, 'nginx.conf'), conf);
    const out = execFileSync(findNginx(), ['-t', '-p', dir, '-c', join(dir, 'nginx.conf'), '-e', 'stderr'], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    expect(out).toBe('');
  });
});

describe("nginx's error pages", () => {
  it('are indented to sit in the template, one named location per refusal', () => {
    const { pages, locations } = errorPages('  ');
    expect(pages.split('\n  ')).toHaveLength(4);
    expect(locations).toMatch(/^location @file_too_large \{\n {6}types \{ \}\n/);
    expect(locations.match(/^ {2}location @/gm)).toHaveLength(3);
  });
});

describe('startStack', () => {
  const options = () => ({
    runDir: join(dir, 'run'),
    staticRoot: dir,
    services: [],
    portOffset: 20_000,
    authEmulator: false,
  });

  it('names the process that failed to start, with its last lines', async () => {
    const entry = join(dir, 'fails.mjs');
    await writeFile(entry, 'console.error("boom: setting X is missing"); process.exit(3);');
    await expect(startStack({ ...options(), gatewayEntry: entry })).rejects.toThrow(
      /gateway exited with code 3 before it was healthy[\s\S]*boom: setting X is missing/,
    );
  });

  it('gives up on a process that never becomes healthy, naming the address it waited for', async () => {
    const entry = join(dir, 'silent.mjs');
    await writeFile(entry, 'setInterval(() => {}, 1000);');
    await expect(startStack({ ...options(), gatewayEntry: entry, healthTimeoutMs: 1500 })).rejects.toThrow(
      /gateway was not healthy at http:\/\/127\.0\.0\.1:23100\/healthz within 2 s/,
    );
  });

  it('when cancelled, kills what it started, even a process that ignores SIGTERM', async () => {
    const entry = join(dir, 'stubborn.mjs');
    const pidFile = join(dir, 'stubborn.pid');
    await writeFile(
      entry,
      `import { writeFileSync } from 'node:fs';
       process.on('SIGTERM', () => {});
       writeFileSync(${JSON.stringify(pidFile)}, String(process.pid));
       setInterval(() => {}, 1000);`,
    );
    const cancel = new AbortController();
    const started = startStack({ ...options(), gatewayEntry: entry, stopGraceMs: 300, signal: cancel.signal });
    let pid = 0;
    for (let waited = 0; !pid && waited < 60_000; waited += 100) {
      await new Promise((r) => setTimeout(r, 100));
      pid = Number(await readFile(pidFile, 'utf8').catch(() => '0'));
    }
    expect(pid).toBeGreaterThan(0);
    cancel.abort();
    await expect(started).rejects.toThrow(/cancelled while gateway was starting/);
    expect(() => process.kill(pid, 0)).toThrow();
  });

  it('without a Firebase project, runs the Auth emulator, hands it to the gateway and lets the CSP reach it', async () => {
    const entry = join(dir, 'env-gateway.mjs');
    await writeFile(
      entry,
      `import { createServer } from 'node:http';
       const seen = { host: process.env.FIREBASE_AUTH_EMULATOR_HOST ?? null, project: process.env.FIREBASE_PROJECT_ID ?? null };
       createServer((req, res) => res.end(JSON.stringify(seen))).listen(Number(process.env.PORT), '127.0.0.1');`,
    );
    const stack = await startStack({
      ...options(),
      authEmulator: undefined,
      env: { FIREBASE_API_KEY: '', FIREBASE_AUTH_EMULATOR_HOST: '' },
      gatewayEntry: entry,
      healthTimeoutMs: 240_000,
    });
    const emulator = 'http://127.0.0.1:29099';
    try {
      expect(await (await fetch(`${stack.gatewayUrl}/healthz`)).json()).toEqual({
        host: '127.0.0.1:29099',
        project: 'demo-quire',
      });
      expect(await (await fetch(`${emulator}/`)).json()).toMatchObject({ authEmulator: { ready: true } });
      const csp = (await fetch(`${stack.url}/`)).headers.get('content-security-policy');
      expect(csp).toContain(`connect-src 'self' ${emulator};`);
    } finally {
      await stack.stop();
    }
    await expect(fetch(`${emulator}/`)).rejects.toThrow();
  }, 300_000);

  it('refuses a bad shared setting before it starts anything, naming it', async () => {
    await expect(startStack({ ...options(), env: { JOB_TIMEOUT_MS: '2m' } })).rejects.toThrow(
      'Setting JOB_TIMEOUT_MS must be a whole number, not "2m"',
    );
  });

  it("names the setting that stopped a service at start, from the service's own message", async () => {
    await expect(
      startStack({ ...options(), services: ['pdf-editor'], env: { QUEUE_MAX_WAITING: 'lots' } }),
    ).rejects.toThrow(
      /pdf-editor exited with code 1 before it was healthy[\s\S]*Setting QUEUE_MAX_WAITING must be a whole number, not "lots"/,
    );
  });

  it('refuses to start without a gateway entry', async () => {
    await expect(startStack({ ...options(), gatewayEntry: join(dir, 'none.ts') })).rejects.toThrow('does not exist');
  });
});
