import { sql, type Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

/** The one migration set, for PGlite and PostgreSQL alike. Append new entries; never edit old ones. */
export const migrations: Record<string, Migration> = {
  '0001_accounts_and_sessions': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('users')
        .addColumn('id', 'bigserial', (c) => c.primaryKey())
        .addColumn('sn', 'varchar(16)', (c) => c.notNull().unique())
        .addColumn('account', 'varchar(64)', (c) => c.unique())
        .addColumn('password_hash', 'text')
        .addColumn('payment_hash', 'text')
        .addColumn('nickname', 'varchar(64)', (c) => c.notNull().defaultTo(''))
        .addColumn('email', 'varchar(128)', (c) => c.notNull().defaultTo(''))
        .addColumn('mobile', 'varchar(32)', (c) => c.notNull().defaultTo(''))
        .addColumn('address', 'varchar(42)', (c) => c.unique())
        .addColumn('avatar', 'varchar(512)', (c) => c.notNull().defaultTo(''))
        .addColumn('referrer_id', 'bigint', (c) => c.references('users.id'))
        .addColumn('referrer_changed', 'boolean', (c) => c.notNull().defaultTo(false))
        .addColumn('disabled', 'boolean', (c) => c.notNull().defaultTo(false))
        .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
        .execute();
      await db.schema.createIndex('users_referrer_idx').on('users').column('referrer_id').execute();
      await db.schema
        .createTable('sessions')
        .addColumn('id', 'bigserial', (c) => c.primaryKey())
        .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id'))
        .addColumn('token_hash', 'char(64)', (c) => c.notNull().unique())
        .addColumn('terminal', 'smallint', (c) => c.notNull())
        .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
        .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
        .addColumn('revoked_at', 'timestamptz')
        .execute();
      await db.schema.createIndex('sessions_user_idx').on('sessions').columns(['user_id', 'terminal']).execute();
    },
  },
  '0002_one_live_session_per_terminal': {
    async up(db: Kysely<unknown>) {
      // The database, not only the login code, guarantees one live session per user and terminal.
      // Duplicates left by a race before this index would stop it being built: keep the newest.
      await sql`UPDATE sessions s SET revoked_at = now() WHERE s.revoked_at IS NULL AND EXISTS (
        SELECT 1 FROM sessions t WHERE t.user_id = s.user_id AND t.terminal = s.terminal AND t.revoked_at IS NULL AND t.id > s.id)`.execute(db);
      await db.schema
        .createIndex('sessions_live_terminal_idx')
        .on('sessions')
        .columns(['user_id', 'terminal'])
        .unique()
        .where(sql.ref('revoked_at'), 'is', null)
        .execute();
    },
  },
  '0003_exchange_keys': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('exchange_keys')
        .addColumn('id', 'bigserial', (c) => c.primaryKey())
        .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id'))
        .addColumn('exchange_id', 'smallint', (c) => c.notNull())
        .addColumn('api_key_masked', 'varchar(64)', (c) => c.notNull())
        .addColumn('sealed', 'text', (c) => c.notNull())
        .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
        .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
        .addUniqueConstraint('exchange_keys_user_exchange', ['user_id', 'exchange_id'])
        .execute();
    },
  },
};
