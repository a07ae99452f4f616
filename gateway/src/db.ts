import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, Migrator, SqliteDialect, sql, type Generated, type Migration } from 'kysely';
import { tools } from '@quire/catalog';

export interface Database {
  usage: { tool: string; count: number };
  contact_messages: { id: Generated<number>; name: string; email: string; message: string; created_at: string };
  newsletter: { email: string; unsubscribe_token: string; created_at: string };
}

export type Db = Kysely<Database>;

const migrations: Record<string, Migration> = {
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
      await db.schema
        .createTable('contact_messages')
        .addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
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
};

/** Opens the SQLite file (made if missing), brings its schema up to date and seeds usage from the catalog. */
export async function openDatabase(file: string): Promise<Db> {
  mkdirSync(dirname(file), { recursive: true });
  const sqlite = new SQLite(file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('busy_timeout = 5000');
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: sqlite }) });
  const { error } = await new Migrator({ db, provider: { getMigrations: async () => migrations } }).migrateToLatest();
  if (error) throw error;
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
  return Object.fromEntries(rows.map((r) => [r.tool, r.count]));
}

export async function saveContactMessage(db: Db, m: { name: string; email: string; message: string }): Promise<void> {
  await db
    .insertInto('contact_messages')
    .values({ ...m, created_at: new Date().toISOString() })
    .execute();
}

/** Adds an address once; true when it is new. */
export async function subscribe(db: Db, email: string, unsubscribeToken: string): Promise<boolean> {
  const result = await db
    .insertInto('newsletter')
    .values({ email, unsubscribe_token: unsubscribeToken, created_at: new Date().toISOString() })
    .onConflict((oc) => oc.column('email').doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
}
