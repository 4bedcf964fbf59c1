import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Kysely, PGliteDialect, PostgresDialect, sql } from 'kysely';
import { Migrator, type MigrationProvider } from 'kysely/migration';
import type { Database } from './schema.ts';
import { migrations } from './migrations.ts';

export type Db = Kysely<Database>;

export interface DbOptions {
  /** PostgreSQL connection string; when empty, PGlite. */
  url?: string;
  /** PGlite data folder; when empty too, an in-memory PGlite (tests). */
  dataDir?: string;
  /** PostgreSQL schema to use (tests isolate themselves in one). */
  schema?: string;
}

/** Opens the database: real PostgreSQL when a URL is given, else the embedded PGlite. */
export async function openDatabase(options: DbOptions = {}): Promise<Db> {
  if (options.url) {
    const { default: pg } = await import('pg');
    // bigint ids come back as strings (never lose precision); timestamptz as Date.
    const pool = new pg.Pool({
      connectionString: options.url,
      max: 10,
      ...(options.schema ? { options: `-c search_path=${options.schema}` } : {}),
    });
    return new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  }
  const { PGlite } = await import('@electric-sql/pglite');
  let dir: string | undefined;
  if (options.dataDir) {
    dir = resolve(join(options.dataDir, 'pglite'));
    mkdirSync(dir, { recursive: true });
  }
  // int8 (bigint ids) as strings, as node-postgres answers them: one shape on both databases.
  const parsers = { 20: (value: string) => value };
  const pglite = await PGlite.create(dir ? { dataDir: dir, parsers } : { parsers });
  return new Kysely<Database>({ dialect: new PGliteDialect({ pglite: pglite as never }) });
}

const provider: MigrationProvider = { getMigrations: async () => migrations };

/** Brings the schema up to date; throws with the failing migration's error. */
export async function migrate(db: Db): Promise<void> {
  // Kysely looks for its bookkeeping tables in every schema unless told which one: another schema's
  // copy (a parallel test file, another app on the same server) would make it skip creating its own.
  const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(db);
  const migrationTableSchema = rows[0]?.schema ?? 'public';
  const { error, results } = await new Migrator({ db, provider, migrationTableSchema }).migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) throw new Error(`migration ${failed?.migrationName ?? ''} failed: ${String(error)}`);
}
