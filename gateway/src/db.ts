import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, Migrator, SqliteDialect, sql, type Migration } from 'kysely';
import { tools } from '@quire/catalog';

export interface Database {
  usage: { tool: string; count: number };
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
