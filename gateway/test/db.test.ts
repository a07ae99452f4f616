import { join } from 'node:path';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tools } from '@quire/catalog';
import { startPostgres, type Postgres } from './postgres.ts';
import {
  countUse,
  openDatabase,
  recordRun,
  saveContactMessage,
  subscribe,
  unsubscribe,
  usageStats,
  userHistory,
  type Db,
  type DatabaseTarget,
} from '../src/db.ts';
import { makeGateway } from './helpers.ts';

let postgres: Postgres | undefined;
beforeAll(async () => {
  postgres = await startPostgres();
}, 120_000);
afterAll(async () => {
  await postgres?.stop();
});

/** Each backend gets a database of its own for each test. */
let made = 0;
const backends: [string, () => Promise<{ target: DatabaseTarget; env: Record<string, string> }>][] = [
  [
    'SQLite',
    async () => {
      const file = join(mkdtempSync(join(tmpdir(), 'quire-db-')), 'quire.db');
      return { target: { file }, env: {} };
    },
  ],
  [
    'PostgreSQL',
    async () => {
      const name = `quire_test_${process.pid}_${++made}`;
      const admin = await openDatabase({ url: postgres!.url });
      const { sql } = await import('kysely');
      await sql.raw(`CREATE DATABASE ${name}`).execute(admin);
      await admin.destroy();
      const url = postgres!.url.replace(/\/postgres$/, `/${name}`);
      return { target: { url }, env: { DATABASE_URL: url } };
    },
  ],
];

describe.each(backends)('the site data on %s', (_name, fresh) => {
  async function open(): Promise<Db> {
    return openDatabase((await fresh()).target);
  }

  it('seeds usage from the catalog, counts exactly under concurrency and keeps the counts on reopening', async () => {
    const { target } = await fresh();
    const db = await openDatabase(target);
    expect(await usageStats(db)).toEqual(Object.fromEntries(tools.map((t) => [t.id, t.usage])));
    await Promise.all(Array.from({ length: 25 }, () => countUse(db, 'pdf-merge')));
    await db.destroy();
    const again = await openDatabase(target);
    const seed = tools.find((t) => t.id === 'pdf-merge')!.usage;
    expect((await usageStats(again))['pdf-merge']).toBe(seed + 25);
    await again.destroy();
  });

  it('stores contact messages and subscribes an address once, with a working unsubscribe token', async () => {
    const db = await open();
    await saveContactMessage(db, { name: 'Ada', email: 'ada@example.org', message: 'Héllo — ünïcode ✓' });
    expect(await db.selectFrom('contact_messages').select(['name', 'message']).execute()).toEqual([
      { name: 'Ada', message: 'Héllo — ünïcode ✓' },
    ]);
    expect(await subscribe(db, 'reader@example.org', 'token-1')).toBe(true);
    expect(await subscribe(db, 'reader@example.org', 'token-2')).toBe(false);
    const rows = await db.selectFrom('newsletter').selectAll().execute();
    expect(rows.map((r) => r.unsubscribe_token)).toEqual(['token-1']);
    expect(await unsubscribe(db, 'token-2')).toBe(false);
    expect(await unsubscribe(db, 'token-1')).toBe(true);
    expect(await db.selectFrom('newsletter').selectAll().execute()).toEqual([]);
    await db.destroy();
  });

  it("returns a user's own runs, newest first, with a download only while it lives", async () => {
    const db = await open();
    const later = new Date(Date.now() + 60_000);
    await recordRun(db, { userId: 'alice', tool: 'pdf-merge', download: 'a'.repeat(32) + '-m.pdf', expiresAt: later });
    await recordRun(db, { userId: 'bob', tool: 'pdf-split', download: 'b'.repeat(32) + '-s.zip', expiresAt: later });
    await recordRun(db, { userId: 'alice', tool: 'rotate-pdf', download: null, expiresAt: null });
    const alice = await userHistory(db, 'alice');
    expect(alice.map((r) => r.tool)).toEqual(['rotate-pdf', 'pdf-merge']);
    expect(alice[1]!.download).toBe('a'.repeat(32) + '-m.pdf');
    expect(Date.parse(alice[0]!.date)).not.toBeNaN();
    // After the result's lifetime the run stays in the history, without its download.
    const afterwards = await userHistory(db, 'alice', new Date(later.getTime() + 1000));
    expect(afterwards.map((r) => r.download)).toEqual([null, null]);
    expect((await userHistory(db, 'bob')).map((r) => r.tool)).toEqual(['pdf-split']);
    expect(await userHistory(db, 'nobody')).toEqual([]);
    await db.destroy();
  });

  it('serves contact and newsletter over HTTP from this database', async () => {
    const { env } = await fresh();
    const { app, db } = await makeGateway(env);
    expect(
      (await request(app).post('/api/v1/contact').send({ name: 'A', email: 'a@b.org', message: 'm' })).status,
    ).toBe(201);
    const first = await request(app).post('/api/v1/newsletter').send({ email: 'x@y.org' });
    const second = await request(app).post('/api/v1/newsletter').send({ email: 'x@y.org' });
    expect([first.status, second.status]).toEqual([201, 200]);
    expect(await db.selectFrom('contact_messages').select('email').execute()).toEqual([{ email: 'a@b.org' }]);
    await db.destroy();
  });
});

describe('the database setting', () => {
  it('refuses a DATABASE_URL that is not a postgres connection string', async () => {
    await expect(makeGateway({ DATABASE_URL: 'mysql://x' })).rejects.toThrow('DATABASE_URL');
  });
});
