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
};
