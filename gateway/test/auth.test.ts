/**
 * Sign-in on the gateway against the real Firebase Auth emulator: ID tokens are verified on every call,
 * runs of signed-in users are recorded, and each user reads only their own history.
 */
import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoProjectId, emulatorSignUp, startAuthEmulator, type RunningAuthEmulator } from './firebase-emulator.ts';
import { readConfig } from '../src/config.ts';
import { corpus, makeGateway } from './helpers.ts';

const pdf = join(corpus, 'pdf/pdfjs-rotation.pdf');

let emulator: RunningAuthEmulator;
let editor: Server;
let editorUrl: string;
const savedHost = process.env.FIREBASE_AUTH_EMULATOR_HOST;

/** A stand-in for the pdf-editor service: every tool answers with the same small PDF. */
async function fakeEditor(): Promise<Server> {
  const answer = await readFile(pdf);
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(200, {
        'Content-Type': 'application/pdf',
        'X-Quire-Output-Kind': 'pdf',
        'X-Quire-Output-Name': 'result.pdf',
      });
      res.end(answer);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return server;
}

beforeAll(async () => {
  emulator = await startAuthEmulator();
  // firebase-admin reads the emulator's address from the environment when it verifies a token.
  process.env.FIREBASE_AUTH_EMULATOR_HOST = emulator.host;
  editor = await fakeEditor();
  editorUrl = `http://127.0.0.1:${(editor.address() as { port: number }).port}`;
}, 240_000);

afterAll(async () => {
  if (savedHost === undefined) delete process.env.FIREBASE_AUTH_EMULATOR_HOST;
  else process.env.FIREBASE_AUTH_EMULATOR_HOST = savedHost;
  await new Promise((r) => editor?.close(r));
  await emulator?.stop();
});

const gateway = () =>
  makeGateway({ FIREBASE_AUTH_EMULATOR_HOST: emulator.host, PDF_EDITOR_URL: editorUrl, RESULT_TTL_SECONDS: '60' });
const unique = (name: string) => `${name}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.com`;
const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });

/** A JWT without a signature, as the emulator issues them. */
function unsignedToken(claims: Record<string, unknown>): string {
  const part = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');
  return `${part({ alg: 'none', typ: 'JWT' })}.${part(claims)}.`;
}

describe('sign-in settings', () => {
  it('tell the site to use the emulator when one is configured', async () => {
    const { app } = await gateway();
    const res = await request(app).get('/api/v1/auth/config');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      enabled: true,
      apiKey: 'demo-key',
      authDomain: `${demoProjectId}.firebaseapp.com`,
      projectId: demoProjectId,
      emulatorUrl: emulator.url,
    });
  });

  it('pass on a real project, and say disabled without any', async () => {
    const real = await makeGateway({
      FIREBASE_API_KEY: 'AIza-test',
      FIREBASE_PROJECT_ID: 'quire-prod',
      FIREBASE_AUTH_DOMAIN: 'login.quire.example',
    });
    expect((await request(real.app).get('/api/v1/auth/config')).body).toEqual({
      enabled: true,
      apiKey: 'AIza-test',
      authDomain: 'login.quire.example',
      projectId: 'quire-prod',
      emulatorUrl: null,
    });
    const none = await makeGateway();
    expect((await request(none.app).get('/api/v1/auth/config')).body).toMatchObject({
      enabled: false,
      emulatorUrl: null,
    });
  });

  it('refuse the emulator in production', () => {
    expect(() => readConfig({ NODE_ENV: 'production', FIREBASE_AUTH_EMULATOR_HOST: emulator.host })).toThrow(
      /FIREBASE_AUTH_EMULATOR_HOST/,
    );
    expect(() => readConfig({ NODE_ENV: 'production' })).not.toThrow();
  });
});

describe('tokens', () => {
  it('a garbage, forged or expired token is 401 invalid_token on any call; no token is anonymous', async () => {
    const { app } = await gateway();
    const { localId } = await emulatorSignUp(emulator.url, unique('expired'));
    const now = Math.floor(Date.now() / 1000);
    const expired = unsignedToken({
      iss: `https://securetoken.google.com/${demoProjectId}`,
      aud: demoProjectId,
      sub: localId,
      user_id: localId,
      auth_time: now - 7200,
      iat: now - 7200,
      exp: now - 3600,
      firebase: { identities: {}, sign_in_provider: 'password' },
    });
    const forgedForOtherProject = unsignedToken({
      iss: 'https://securetoken.google.com/someone-else',
      aud: 'someone-else',
      sub: localId,
      iat: now,
      exp: now + 3600,
    });
    for (const headers of [
      bearer('garbage'),
      bearer('a.b.c'),
      bearer(expired),
      bearer(forgedForOtherProject),
      { Authorization: 'Basic dXNlcjpwYXNz' },
    ]) {
      for (const call of [
        request(app).get('/api/v1/me/history').set(headers),
        request(app).get('/api/v1/usage').set(headers),
        request(app).post('/api.php?tool=rotate-pdf').set(headers).attach('file', pdf),
      ]) {
        const res = await call;
        expect(res.status, `${headers.Authorization.slice(0, 40)} ${res.text}`).toBe(401);
        expect(res.body.error.code).toBe('invalid_token');
      }
    }
    expect((await request(app).get('/api/v1/usage')).status).toBe(200);
  });

  it('in production mode (no emulator) an unsigned emulator token is rejected', async () => {
    const { idToken } = await emulatorSignUp(emulator.url, unique('prod'));
    delete process.env.FIREBASE_AUTH_EMULATOR_HOST;
    try {
      const { app } = await makeGateway({ NODE_ENV: 'production', FIREBASE_API_KEY: 'AIza-test' });
      const res = await request(app).get('/api/v1/me/history').set(bearer(idToken));
      expect(res.status).toBe(401);
      expect(res.body.error.code).toBe('invalid_token');
    } finally {
      process.env.FIREBASE_AUTH_EMULATOR_HOST = emulator.host;
    }
  });
});

describe('history', () => {
  it('is 401 without a token', async () => {
    const { app } = await gateway();
    const res = await request(app).get('/api/v1/me/history');
    expect(res.status).toBe(401);
    expect(res.body.error.code).toBe('invalid_token');
  });

  it("records a signed-in user's runs and returns only their own, newest first", async () => {
    const { app } = await gateway();
    const ada = await emulatorSignUp(emulator.url, unique('ada'));
    const bob = await emulatorSignUp(emulator.url, unique('bob'));

    const empty = await request(app).get('/api/v1/me/history').set(bearer(ada.idToken));
    expect(empty.status).toBe(200);
    expect(empty.headers['cache-control']).toBe('private, no-store');
    expect(empty.body).toEqual({ history: [] });

    const run = await request(app).post('/api.php?tool=rotate-pdf').set(bearer(ada.idToken)).attach('file', pdf);
    expect(run.status, run.text).toBe(200);
    const flow = await request(app)
      .post('/api/v1/workflows?steps=rotate-pdf,pdf-compress')
      .set(bearer(ada.idToken))
      .attach('file', pdf);
    expect(flow.status, flow.text).toBe(200);
    // Anonymous runs are nobody's history.
    expect((await request(app).post('/api.php?tool=rotate-pdf').attach('file', pdf)).status).toBe(200);

    const adas = await request(app).get('/api/v1/me/history').set(bearer(ada.idToken));
    expect(adas.body.history).toEqual([
      { tool: 'rotate-pdf,pdf-compress', date: expect.any(String), download: flow.body.download },
      { tool: 'rotate-pdf', date: expect.any(String), download: run.body.download },
    ]);
    for (const entry of adas.body.history as { date: string }[]) {
      expect(Math.abs(Date.parse(entry.date) - Date.now())).toBeLessThan(60_000);
    }

    // Bob sees none of Ada's runs, before and after his own.
    expect((await request(app).get('/api/v1/me/history').set(bearer(bob.idToken))).body).toEqual({ history: [] });
    const his = await request(app).post('/api/v1/tools/pdf-compress').set(bearer(bob.idToken)).attach('file', pdf);
    const bobs = await request(app).get('/api/v1/me/history').set(bearer(bob.idToken));
    expect(bobs.body.history).toEqual([
      { tool: 'pdf-compress', date: expect.any(String), download: his.body.download },
    ]);
    expect((await request(app).get('/api/v1/me/history').set(bearer(ada.idToken))).body.history).toHaveLength(2);
  });

  it('keeps a run whose result has expired, without its download', async () => {
    const { app } = await makeGateway({
      FIREBASE_AUTH_EMULATOR_HOST: emulator.host,
      PDF_EDITOR_URL: editorUrl,
      RESULT_TTL_SECONDS: '1',
    });
    const user = await emulatorSignUp(emulator.url, unique('ttl'));
    expect(
      (await request(app).post('/api.php?tool=rotate-pdf').set(bearer(user.idToken)).attach('file', pdf)).status,
    ).toBe(200);
    await new Promise((r) => setTimeout(r, 1500));
    const res = await request(app).get('/api/v1/me/history').set(bearer(user.idToken));
    expect(res.body.history).toEqual([{ tool: 'rotate-pdf', date: expect.any(String), download: null }]);
  });
});
