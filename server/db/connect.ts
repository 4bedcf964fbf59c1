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

const embedded = new WeakMap<Db, Promise<import('@electric-sql/pglite').PGlite>>();
/** Whether `db` is the embedded PGlite (one process) rather than PostgreSQL (any number of processes). */
export const isEmbedded = (db: Db): boolean => embedded.has(db);
/** The PGlite instance behind an embedded `db` (its LISTEN goes through it), undefined on PostgreSQL. */
export const embeddedInstance = (db: Db): Promise<import('@electric-sql/pglite').PGlite> | undefined => embedded.get(db);

/** A database handle usable at once, and the promise that it can answer (queries made before simply wait). */
export interface Connection {
  db: Db;
  ready: Promise<void>;
}

/** How long PostgreSQL lets one of our transactions sit idle before ending it (see connectDatabase). */
export const IDLE_TX_TIMEOUT_MS = 5000;

/**
 * Connects to the database without waiting for it: real PostgreSQL when a URL is given, else the
 * embedded PGlite (under dataDir/pglite, or in memory). The embedded one takes seconds to start,
 * which the server spends loading its HTTP side.
 */
export function connectDatabase(options: DbOptions = {}): Connection {
  if (options.url) {
    const url = options.url;
    let pool: Promise<import('pg').Pool> | undefined;
    // bigint ids come back as strings (never lose precision); timestamptz as Date.
    // A transaction left idle for IDLE_TX_TIMEOUT_MS is ended by PostgreSQL: a process frozen
    // inside one (paused by the OS, SIGSTOP) held its rows' locks for as long as it slept, and the other
    // processes' lease claims waited on them (a takeover took 13.3 s at the default 10 s lease, and would
    // take as long as the freeze). Shorter than any lease, so a claim never waits past it; no transaction
    // of ours waits on anything but the database. The session it ends must not crash this process: its
    // client reports the error to the query waiting on it, or to the listener below, and the pool drops it.
    const settings = [`-c idle_in_transaction_session_timeout=${IDLE_TX_TIMEOUT_MS}`, ...(options.schema ? [`-c search_path=${options.schema}`] : [])];
    const makePool = () =>
      (pool ??= import('pg').then(({ default: pg }) => {
        const p = new pg.Pool({ connectionString: url, max: 10, options: settings.join(' ') });
        p.on('connect', (client) => client.on('error', () => undefined));
        // An idle session the database ends (a restart, a failover, an operator's pg_terminate_backend)
        // is reported by the pool as an 'error' event, which with no listener is an uncaught exception
        // that ends the process; the pool has already dropped that client, and the next query opens another.
        p.on('error', () => undefined);
        return p;
      }));
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool: makePool }) });
    // One round trip now: a wrong DATABASE_URL stops the start instead of failing the first request.
    return { db, ready: sql`select 1`.execute(db).then(() => undefined) };
  }
  const dir = options.dataDir ? resolve(join(options.dataDir, 'pglite')) : undefined;
  const pglite = import('./pglite.ts').then(({ createPglite }) => createPglite(dir));
  pglite.catch(() => undefined); // the failure reaches the caller through `ready`
  const db = new Kysely<Database>({ dialect: new PGliteDialect({ pglite: () => pglite as never }) });
  embedded.set(db, pglite);
  // The first query makes Kysely take the instance, so that db.destroy() closes it.
  return { db, ready: sql`select 1`.execute(db).then(() => undefined) };
}

/** Opens the database and waits until it answers. */
export async function openDatabase(options: DbOptions = {}): Promise<Db> {
  const { db, ready } = connectDatabase(options);
  try {
    await ready;
  } catch (e) {
    await db.destroy().catch(() => undefined);
    throw e;
  }
  return db;
}

const provider: MigrationProvider = { getMigrations: async () => migrations };

/** Brings the schema up to date; throws with the failing migration's error. */
export async function migrate(db: Db): Promise<void> {
  // Kysely looks for its bookkeeping tables in every schema unless told which one: another schema's
  // copy (a parallel test file, another app on the same server) would make it skip creating its own.
  const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(db);
  const migrationTableSchema = rows[0]?.schema ?? 'public';
  const migrator = new Migrator({ db, provider, migrationTableSchema });
  let { error, results } = await migrator.migrateToLatest();
  // Kysely's bookkeeping reads the catalog of every schema, and a schema another client drops meanwhile
  // (a parallel test file's, another app's on the same server) fails that read with "schema does not
  // exist" before any migration ran: tried again, twice at most (it was seen once as a server process
  // started beside the test suite).
  for (let tries = 0; tries < 2 && error && !results?.some((r) => r.status === 'Error') && (error as { code?: string }).code === '3F000'; tries++)
    ({ error, results } = await migrator.migrateToLatest());
  const failed = results?.find((r) => r.status === 'Error');
  // Kysely names no migration when the failure is outside one (its lock, its bookkeeping, the commit of
  // the migrations' one transaction): the database's own error stays attached as the cause.
  if (error || failed) throw new Error(`migration ${failed?.migrationName ?? '(none: outside the migrations)'} failed: ${String(error)}`, { cause: error });
}
