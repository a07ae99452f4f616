/**
 * The site's data (usage counts, contact messages, newsletter addresses, signed-in users' runs) through
 * Kysely: SQLite in a file by default, PostgreSQL when DATABASE_URL is set. One schema, migrated at boot.
 */
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import SQLite from 'better-sqlite3';
import {
  Kysely,
  Migrator,
  PostgresDialect,
  SqliteDialect,
  sql,
  type ColumnDataType,
  type Generated,
  type Migration,
} from 'kysely';
import pg from 'pg';
import { tools } from '@quire/catalog';

export interface Database {
  usage: { tool: string; count: number };
  contact_messages: { id: Generated<number>; name: string; email: string; message: string; created_at: string };
  newsletter: { email: string; unsubscribe_token: string; created_at: string };
  runs: {
    id: Generated<number>;
    user_id: string;
    tool: string;
    created_at: string;
    download: string | null;
    expires_at: string | null;
  };
  workflows: { id: string; name: string; steps: string; user_id: string | null; created_at: string };
}

export type Db = Kysely<Database>;

/** A SQLite file, or a PostgreSQL connection string. */
export type DatabaseTarget = { file: string } | { url: string };

/** Dates are ISO 8601 text in both databases: they sort as text and read back the same everywhere. */
const now = () => new Date().toISOString();

function migrations(idType: ColumnDataType): Record<string, Migration> {
  // An id the database numbers itself: INTEGER PRIMARY KEY in SQLite, SERIAL in PostgreSQL.
  const id = (t: ReturnType<Kysely<unknown>['schema']['createTable']>) =>
    t.addColumn('id', idType, (c) => (idType === 'serial' ? c.primaryKey() : c.primaryKey().autoIncrement()));
  return {
    '001-usage': {
      async up(db) {
        await db.schema
          .createTable('usage')
          .addColumn('tool', 'text', (c) => c.primaryKey())
          .addColumn('count', 'integer', (c) => c.notNull())
          .execute();
      },
    },
    '002-site-data': {
      async up(db) {
        await id(db.schema.createTable('contact_messages'))
          .addColumn('name', 'text', (c) => c.notNull())
          .addColumn('email', 'text', (c) => c.notNull())
          .addColumn('message', 'text', (c) => c.notNull())
          .addColumn('created_at', 'text', (c) => c.notNull())
          .execute();
        await db.schema
          .createTable('newsletter')
          .addColumn('email', 'text', (c) => c.primaryKey())
          .addColumn('unsubscribe_token', 'text', (c) => c.notNull().unique())
          .addColumn('created_at', 'text', (c) => c.notNull())
          .execute();
      },
    },
    '003-runs': {
      async up(db) {
        await id(db.schema.createTable('runs'))
          .addColumn('user_id', 'text', (c) => c.notNull())
          .addColumn('tool', 'text', (c) => c.notNull())
          .addColumn('created_at', 'text', (c) => c.notNull())
          .addColumn('download', 'text')
          .addColumn('expires_at', 'text')
          .execute();
        await db.schema.createIndex('runs_by_user').on('runs').columns(['user_id', 'created_at']).execute();
      },
    },
    '004-workflows': {
      async up(db) {
        await db.schema
          .createTable('workflows')
          .addColumn('id', 'text', (c) => c.primaryKey())
          .addColumn('name', 'text', (c) => c.notNull())
          .addColumn('steps', 'text', (c) => c.notNull())
          .addColumn('user_id', 'text')
          .addColumn('created_at', 'text', (c) => c.notNull())
          .execute();
        await db.schema.createIndex('workflows_by_user').on('workflows').columns(['user_id', 'created_at']).execute();
      },
    },
  };
}

/**
 * Opens the database (a SQLite file is made if missing), brings its schema up to date and seeds usage
 * from the catalog. A path alone means a SQLite file.
 */
export async function openDatabase(target: string | DatabaseTarget): Promise<Db> {
  const where = typeof target === 'string' ? { file: target } : target;
  let db: Db;
  if ('url' in where) {
    const pool = new pg.Pool({ connectionString: where.url, max: 10 });
    // An idle connection the server closes (a restart, a failover) leaves the pool, which also emits it as
    // an 'error' event: unheard, that event would end the gateway. The next query opens a new connection,
    // and a query that fails answers its request with the error.
    pool.on('error', () => {});
    db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  } else {
    mkdirSync(dirname(where.file), { recursive: true });
    const sqlite = new SQLite(where.file);
    sqlite.pragma('journal_mode = WAL');
    sqlite.pragma('busy_timeout = 5000');
    db = new Kysely<Database>({ dialect: new SqliteDialect({ database: sqlite }) });
  }
  const idType: ColumnDataType = 'url' in where ? 'serial' : 'integer';
  const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations(idType) } });
  const { error } = await migrator.migrateToLatest();
  if (error) {
    await db.destroy();
    throw error;
  }
  await db
    .insertInto('usage')
    .values(tools.map((t) => ({ tool: t.id, count: t.usage })))
    .onConflict((oc) => oc.column('tool').doNothing())
    .execute();
  return db;
}

export async function countUse(db: Db, tool: string): Promise<void> {
  // One atomic statement, so parallel runs never lose a count.
  await db
    .updateTable('usage')
    .set({ count: sql`count + 1` })
    .where('tool', '=', tool)
    .execute();
}

export async function usageStats(db: Db): Promise<Record<string, number>> {
  const rows = await db.selectFrom('usage').select(['tool', 'count']).orderBy('tool').execute();
  return Object.fromEntries(rows.map((r) => [r.tool, Number(r.count)]));
}

export async function saveContactMessage(db: Db, m: { name: string; email: string; message: string }): Promise<void> {
  await db
    .insertInto('contact_messages')
    .values({ ...m, created_at: now() })
    .execute();
}

/** Adds an address once; true when it is new. */
export async function subscribe(db: Db, email: string, unsubscribeToken: string): Promise<boolean> {
  const result = await db
    .insertInto('newsletter')
    .values({ email, unsubscribe_token: unsubscribeToken, created_at: now() })
    .onConflict((oc) => oc.column('email').doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
}

/** Removes an address by its unsubscribe token; true when there was one. */
export async function unsubscribe(db: Db, token: string): Promise<boolean> {
  const result = await db.deleteFrom('newsletter').where('unsubscribe_token', '=', token).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** Records a signed-in user's run. */
export async function recordRun(
  db: Db,
  run: { userId: string; tool: string; download: string | null; expiresAt: Date | null },
): Promise<void> {
  await db
    .insertInto('runs')
    .values({
      user_id: run.userId,
      tool: run.tool,
      created_at: now(),
      download: run.download,
      expires_at: run.expiresAt?.toISOString() ?? null,
    })
    .execute();
}

/** The user's own runs, newest first; `download` only while it lives. */
export async function userHistory(
  db: Db,
  userId: string,
  at: Date = new Date(),
): Promise<{ tool: string; date: string; download: string | null }[]> {
  const rows = await db
    .selectFrom('runs')
    .select(['tool', 'created_at', 'download', 'expires_at'])
    .where('user_id', '=', userId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(200)
    .execute();
  const moment = at.toISOString();
  return rows.map((r) => ({
    tool: r.tool,
    date: r.created_at,
    download: r.download && r.expires_at && r.expires_at > moment ? r.download : null,
  }));
}
