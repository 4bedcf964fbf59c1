import { sql, type Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

/**
 * The cluster's tables (server/cluster/ uses them): which server process owns which bot. One `workers` row per process, kept
 * alive by its heartbeat (the database's clock only); one `bot_leases` row per bot that was ever
 * claimed, naming its owner and the fencing number (epoch) that every decision checks.
 */
export const workersAndLeases: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('workers')
      .addColumn('id', 'uuid', (c) => c.primaryKey())
      .addColumn('host', 'varchar(255)', (c) => c.notNull())
      .addColumn('pid', 'integer', (c) => c.notNull())
      .addColumn('started_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
      .addColumn('heartbeat_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
      .addColumn('draining', 'boolean', (c) => c.notNull().defaultTo(false))
      .execute();
    await db.schema
      .createTable('bot_leases')
      .addColumn('bot_id', 'bigint', (c) => c.primaryKey().references('bots.id'))
      // A worker that leaves (or is cleared as dead) frees its bots: the next claim takes them.
      .addColumn('worker_id', 'uuid', (c) => c.references('workers.id').onDelete('set null'))
      // +1 on every grant, never reused: a decision made under an older epoch is refused.
      .addColumn('epoch', 'bigint', (c) => c.notNull().defaultTo(0))
      .addColumn('granted_at', 'timestamptz')
      .execute();
    await db.schema.createIndex('bot_leases_worker_idx').on('bot_leases').column('worker_id').execute();
  },
};

/**
 * The duties one process at a time does (the chain watcher and withdrawal sender, AI
 * re-tuning, pruning), each a named lease with its own fencing number, held while its worker lives;
 * and the settings every process must share (the simulated market's clock origin).
 */
export const singletonsAndSettings: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('singleton_leases')
      .addColumn('name', 'varchar(64)', (c) => c.primaryKey())
      .addColumn('worker_id', 'uuid', (c) => c.references('workers.id').onDelete('set null'))
      .addColumn('epoch', 'bigint', (c) => c.notNull().defaultTo(0))
      .addColumn('granted_at', 'timestamptz')
      .execute();
    await db.schema
      .createTable('cluster_settings')
      .addColumn('name', 'varchar(64)', (c) => c.primaryKey())
      .addColumn('value', 'text', (c) => c.notNull())
      .execute();
  },
};

/**
 * Manual commands (add, close) for a bot another process owns, waiting for that owner
 * (server/cluster/commands.ts). Options hold exact decimal strings; a row is taken once (taken_by,
 * taken_at) before its deadline, and done with its result (placed, busy, nothing, error, expired).
 */
export const botCommands: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('bot_commands')
      .addColumn('id', 'uuid', (c) => c.primaryKey())
      .addColumn('bot_id', 'bigint', (c) => c.notNull().references('bots.id'))
      .addColumn('kind', 'varchar(8)', (c) => c.notNull())
      .addColumn('options', 'jsonb', (c) => c.notNull())
      .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
      .addColumn('deadline', 'timestamptz', (c) => c.notNull())
      // The worker that took it (no reference: a worker's row goes when it leaves, its commands stay done).
      .addColumn('taken_by', 'uuid')
      .addColumn('taken_at', 'timestamptz')
      .addColumn('result', 'varchar(16)')
      .addColumn('holding', 'boolean')
      .addColumn('done_at', 'timestamptz')
      .execute();
    // The waiting commands only (a handful at any time): what owners look up, whatever the number of bots.
    await db.schema.createIndex('bot_commands_waiting_idx').on('bot_commands').column('bot_id').where(sql.ref('done_at'), 'is', null).execute();
    await db.schema.createIndex('bot_commands_created_idx').on('bot_commands').column('created_at').execute();
  },
};

/**
 * The AI searches' line, shared by every process (server/services/ai-queue.ts): one row per
 * search queued or running, at most one per trader in the cluster; `line` names the process that runs
 * it, `seen_at` is refreshed by that process (a dead process's rows go stale), `done` and `total` are
 * its progress for whichever process the trader asks.
 */
export const aiSearchLine: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('ai_searches')
      .addColumn('id', 'bigserial', (c) => c.primaryKey())
      .addColumn('user_id', 'bigint', (c) => c.notNull().unique().references('users.id'))
      .addColumn('line', 'varchar(36)', (c) => c.notNull())
      .addColumn('done', 'integer')
      .addColumn('total', 'integer')
      .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
      .addColumn('seen_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
      .execute();
    await db.schema.createIndex('ai_searches_line_idx').on('ai_searches').columns(['line', 'id']).execute();
  },
};
