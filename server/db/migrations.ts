import { sql, type Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';
import { aiSearchLine, botCommands, singletonsAndSettings, workersAndLeases } from './migrations-cluster.ts';

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
      await db.schema.createIndex('sessions_live_terminal_idx').on('sessions').columns(['user_id', 'terminal']).unique().where(sql.ref('revoked_at'), 'is', null).execute();
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
  '0004_bots': {
    async up(db: Kysely<unknown>) {
      // Money columns are numeric (exact); the engine reads them as decimal strings.
      const money = 'numeric(38,18)';
      await db.schema
        .createTable('bots')
        .addColumn('id', 'bigserial', (c) => c.primaryKey())
        .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id'))
        .addColumn('exchange_id', 'smallint', (c) => c.notNull())
        .addColumn('symbol', 'varchar(41)', (c) => c.notNull())
        .addColumn('type', 'varchar(16)', (c) => c.notNull())
        .addColumn('name', 'varchar(64)', (c) => c.notNull())
        .addColumn('params', 'jsonb', (c) => c.notNull())
        .addColumn('status', 'varchar(8)', (c) => c.notNull())
        .addColumn('state', 'jsonb', (c) => c.notNull())
        .addColumn('realized', sql.raw(money), (c) => c.notNull().defaultTo(0))
        .addColumn('error', 'varchar(200)')
        .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
        .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
        .addColumn('deleted_at', 'timestamptz')
        .execute();
      await db.schema.createIndex('bots_user_idx').on('bots').columns(['user_id', 'id']).where(sql.ref('deleted_at'), 'is', null).execute();
      await db.schema.createIndex('bots_status_idx').on('bots').column('status').where(sql.ref('deleted_at'), 'is', null).execute();
      await db.schema
        .createTable('bot_orders')
        .addColumn('id', 'bigserial', (c) => c.primaryKey())
        .addColumn('bot_id', 'bigint', (c) => c.notNull().references('bots.id'))
        .addColumn('client_order_id', 'varchar(64)', (c) => c.notNull().unique())
        .addColumn('cycle', 'integer', (c) => c.notNull())
        .addColumn('seq', 'integer', (c) => c.notNull())
        .addColumn('side', 'varchar(4)', (c) => c.notNull())
        .addColumn('reason', 'varchar(16)', (c) => c.notNull())
        .addColumn('quote', sql.raw(money))
        .addColumn('amount', sql.raw(money))
        .addColumn('status', 'varchar(8)', (c) => c.notNull())
        .addColumn('price', sql.raw(money))
        .addColumn('filled', sql.raw(money))
        .addColumn('cost', sql.raw(money))
        .addColumn('fee', sql.raw(money))
        .addColumn('fee_currency', 'varchar(16)')
        .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
        .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
        .execute();
      await db.schema.createIndex('bot_orders_bot_idx').on('bot_orders').columns(['bot_id', 'cycle', 'seq']).execute();
      await db.schema
        .createTable('bot_actions')
        .addColumn('id', 'bigserial', (c) => c.primaryKey())
        .addColumn('bot_id', 'bigint', (c) => c.notNull().references('bots.id'))
        .addColumn('kind', 'varchar(16)', (c) => c.notNull())
        .addColumn('detail', 'jsonb', (c) => c.notNull())
        .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
        .execute();
      await db.schema.createIndex('bot_actions_bot_idx').on('bot_actions').columns(['bot_id', 'id']).execute();
      await db.schema
        .createTable('bot_cycles')
        .addColumn('id', 'bigserial', (c) => c.primaryKey())
        .addColumn('bot_id', 'bigint', (c) => c.notNull().references('bots.id'))
        .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id'))
        .addColumn('cycle', 'integer', (c) => c.notNull())
        .addColumn('entries', 'integer', (c) => c.notNull())
        .addColumn('amount', sql.raw(money), (c) => c.notNull())
        .addColumn('cost', sql.raw(money), (c) => c.notNull())
        .addColumn('close_price', sql.raw(money), (c) => c.notNull())
        .addColumn('profit', sql.raw(money), (c) => c.notNull())
        .addColumn('opened_at', 'timestamptz')
        .addColumn('closed_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
        .addUniqueConstraint('bot_cycles_bot_cycle', ['bot_id', 'cycle'])
        .execute();
      await db.schema.createIndex('bot_cycles_user_idx').on('bot_cycles').columns(['user_id', 'closed_at']).execute();
      // The Paper exchange's own books: the venue's side of every order, apart from the bots' records.
      await db.schema
        .createTable('paper_balances')
        .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id'))
        .addColumn('currency', 'varchar(16)', (c) => c.notNull())
        .addColumn('amount', sql.raw(money), (c) => c.notNull())
        .addPrimaryKeyConstraint('paper_balances_pk', ['user_id', 'currency'])
        .execute();
      await db.schema
        .createTable('paper_orders')
        .addColumn('client_order_id', 'varchar(64)', (c) => c.primaryKey())
        .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id'))
        .addColumn('symbol', 'varchar(41)', (c) => c.notNull())
        .addColumn('side', 'varchar(4)', (c) => c.notNull())
        .addColumn('status', 'varchar(8)', (c) => c.notNull())
        .addColumn('price', sql.raw(money))
        .addColumn('filled', sql.raw(money), (c) => c.notNull())
        .addColumn('cost', sql.raw(money), (c) => c.notNull())
        .addColumn('fee', sql.raw(money))
        .addColumn('fee_currency', 'varchar(16)')
        .addColumn('reason', 'varchar(64)')
        .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
        .execute();
      await db.schema
        .createTable('batch_tasks')
        .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
        .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id'))
        .addColumn('action', 'varchar(8)', (c) => c.notNull())
        .addColumn('ids', 'jsonb', (c) => c.notNull())
        .addColumn('results', 'jsonb', (c) => c.notNull())
        .addColumn('status', 'varchar(8)', (c) => c.notNull())
        .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
        .execute();
    },
  },
  '0005_wallet_nonces': {
    async up(db: Kysely<unknown>) {
      // Sign-in with Ethereum: each nonce is issued for one address with the exact message to
      // sign, expires after 5 minutes and is used at most once (used_at set by the verify that uses it).
      await db.schema
        .createTable('wallet_nonces')
        .addColumn('nonce', 'varchar(64)', (c) => c.primaryKey())
        .addColumn('address', 'varchar(42)', (c) => c.notNull())
        .addColumn('message', 'text', (c) => c.notNull())
        .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
        .addColumn('used_at', 'timestamptz')
        .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
        .execute();
      await db.schema.createIndex('wallet_nonces_address_idx').on('wallet_nonces').columns(['address', 'created_at']).execute();
    },
  },
  '0006_accounts': {
    async up(db: Kysely<unknown>) {
      // The platform balances: one row per user and asset, changed only with a log line.
      await db.schema
        .createTable('user_balances')
        .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id'))
        .addColumn('asset', 'varchar(8)', (c) => c.notNull())
        .addColumn('amount', 'numeric(38, 18)', (c) => c.notNull().defaultTo(0))
        .addPrimaryKeyConstraint('user_balances_pk', ['user_id', 'asset'])
        .execute();
      await db.schema
        .createTable('account_logs')
        .addColumn('id', 'bigserial', (c) => c.primaryKey())
        .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id'))
        .addColumn('asset', 'varchar(8)', (c) => c.notNull())
        .addColumn('amount', 'numeric(38, 18)', (c) => c.notNull())
        .addColumn('balance', 'numeric(38, 18)', (c) => c.notNull())
        .addColumn('reason', 'varchar(20)', (c) => c.notNull())
        .addColumn('detail', 'jsonb', (c) => c.notNull())
        .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
        .execute();
      await db.schema.createIndex('account_logs_user_idx').on('account_logs').columns(['user_id', 'asset', 'id']).execute();
      // Notices and warnings; the engine writes the fuel warnings.
      await db.schema
        .createTable('notices')
        .addColumn('id', 'bigserial', (c) => c.primaryKey())
        .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id'))
        .addColumn('kind', 'varchar(16)', (c) => c.notNull())
        .addColumn('code', 'varchar(32)', (c) => c.notNull())
        .addColumn('detail', 'jsonb', (c) => c.notNull())
        .addColumn('read_at', 'timestamptz')
        .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
        .execute();
      await db.schema.createIndex('notices_user_idx').on('notices').columns(['user_id', 'id']).execute();
    },
  },
  '0007_chain': {
    async up(db: Kysely<unknown>) {
      // Deposits and withdrawals on chain 56. The watcher's cursor: the last block whose
      // logs are credited, advanced in the same transaction as the credits.
      await db.schema
        .createTable('chain_cursors')
        .addColumn('name', 'varchar(80)', (c) => c.primaryKey())
        .addColumn('block', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
        .execute();
      // One row per credited log (tx_hash, log_index), which makes crediting twice impossible; a hash the
      // trader reports before it is confirmed waits as 'submitted' with log_index -1.
      await db.schema
        .createTable('deposits')
        .addColumn('id', 'bigserial', (c) => c.primaryKey())
        .addColumn('user_id', 'bigint', (c) => c.references('users.id'))
        .addColumn('tx_hash', 'varchar(66)', (c) => c.notNull())
        .addColumn('log_index', 'integer', (c) => c.notNull())
        .addColumn('block_number', 'bigint')
        .addColumn('from_address', 'varchar(42)')
        .addColumn('amount', 'numeric(38, 18)')
        .addColumn('status', 'varchar(12)', (c) => c.notNull())
        .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
        .addColumn('credited_at', 'timestamptz')
        .addUniqueConstraint('deposits_log_uq', ['tx_hash', 'log_index'])
        .execute();
      await db.schema.createIndex('deposits_user_idx').on('deposits').columns(['user_id', 'id']).execute();
      // A withdrawal: debited when asked (pending), signed with a fixed nonce and stored before it is
      // broadcast (so a crash re-sends the same transaction, never a second one), then sent, confirmed, or
      // failed and refunded. request_id is the client's idempotency key.
      await db.schema
        .createTable('withdrawals')
        .addColumn('id', 'bigserial', (c) => c.primaryKey())
        .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id'))
        .addColumn('request_id', 'varchar(64)', (c) => c.notNull())
        .addColumn('address', 'varchar(42)', (c) => c.notNull())
        .addColumn('amount', 'numeric(38, 18)', (c) => c.notNull())
        .addColumn('fee', 'numeric(38, 18)', (c) => c.notNull())
        .addColumn('status', 'varchar(10)', (c) => c.notNull())
        .addColumn('nonce', 'bigint')
        .addColumn('raw_tx', 'text')
        .addColumn('tx_hash', 'varchar(66)')
        .addColumn('error', 'varchar(200)')
        .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
        .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
        .addUniqueConstraint('withdrawals_request_uq', ['user_id', 'request_id'])
        .execute();
      await db.schema.createIndex('withdrawals_status_idx').on('withdrawals').columns(['status', 'id']).execute();
    },
  },
  '0008_rank': {
    async up(db: Kysely<unknown>) {
      // The rank list sums the cycles closed in a period across all users.
      await db.schema.createIndex('bot_cycles_closed_idx').on('bot_cycles').columns(['closed_at']).execute();
    },
  },
  '0009_ai_bots': {
    async up(db: Kysely<unknown>) {
      // AI bots: a martin or grid bot whose parameters the search chose for a risk level
      // and re-tunes on a schedule while it is flat.
      await db.schema
        .createTable('ai_bots')
        .addColumn('bot_id', 'bigint', (c) => c.primaryKey().references('bots.id'))
        .addColumn('risk', 'varchar(16)', (c) => c.notNull())
        .addColumn('tuned_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
        .execute();
    },
  },
  '0010_paper_per_exchange': {
    async up(db: Kysely<unknown>) {
      // Simulated accounts on live exchanges' prices: one virtual balance per exchange.
      await db.schema
        .alterTable('paper_balances')
        .addColumn('exchange_id', 'integer', (c) => c.notNull().defaultTo(1))
        .execute();
      await db.schema.alterTable('paper_balances').dropConstraint('paper_balances_pk').execute();
      await db.schema.alterTable('paper_balances').addPrimaryKeyConstraint('paper_balances_pk', ['user_id', 'exchange_id', 'currency']).execute();
      await db.schema
        .alterTable('paper_orders')
        .addColumn('exchange_id', 'integer', (c) => c.notNull().defaultTo(1))
        .execute();
    },
  },
  '0011_account_security': {
    async up(db: Kysely<unknown>) {
      // Two-factor authentication (RFC 6238): the secret sealed at rest, a pending one
      // while the trader sets it up, the last time step used (a code works once), hashed recovery codes.
      // Withdrawals wait after any change of the account's security (passwords, 2FA, a new address).
      await db.schema
        .alterTable('users')
        .addColumn('totp_sealed', 'text')
        .addColumn('totp_pending', 'text')
        .addColumn('totp_last_step', 'bigint')
        .addColumn('recovery_hashes', 'jsonb')
        .addColumn('withdraw_locked_until', 'timestamptz')
        .execute();
      // A wallet's signed statements have a purpose: a login signature cannot set a payment password.
      await db.schema
        .alterTable('wallet_nonces')
        .addColumn('purpose', 'varchar(16)', (c) => c.notNull().defaultTo('login'))
        .execute();
      // The addresses a trader withdraws to: a new one waits before it is paid.
      await db.schema
        .createTable('withdrawal_addresses')
        .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id'))
        .addColumn('address', 'varchar(42)', (c) => c.notNull())
        .addColumn('usable_at', 'timestamptz', (c) => c.notNull())
        .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
        .addPrimaryKeyConstraint('withdrawal_addresses_pk', ['user_id', 'address'])
        .execute();
      // The devices a trader has logged in from (a hash of terminal and browser): a new one is a notice.
      await db.schema
        .createTable('known_devices')
        .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id'))
        .addColumn('device', 'varchar(64)', (c) => c.notNull())
        .addColumn('last_seen', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
        .addPrimaryKeyConstraint('known_devices_pk', ['user_id', 'device'])
        .execute();
    },
  },
  '0012_login_attempts': {
    async up(db: Kysely<unknown>) {
      // What every server process must agree on lives here, not in memory.
      // Failed logins per account and source, per account, per source (and the checks of secrets behind
      // a session), forgotten after a window.
      await db.schema
        .createTable('login_attempts')
        .addColumn('key', 'varchar(200)', (c) => c.primaryKey())
        .addColumn('failures', 'integer', (c) => c.notNull())
        .addColumn('last_at', 'timestamptz', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('login_attempts_last_idx').on('login_attempts').column('last_at').execute();
      // Solved proof-of-work challenges, kept until they expire: one solution is good for one call.
      await db.schema
        .createTable('used_challenges')
        .addColumn('nonce', 'varchar(64)', (c) => c.primaryKey())
        .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('used_challenges_expiry_idx').on('used_challenges').column('expires_at').execute();
      // Requests per source and window of the calls that need no token (PostgreSQL: every process counts here).
      await db.schema
        .createTable('rate_limits')
        .addColumn('key', 'varchar(200)', (c) => c.primaryKey())
        .addColumn('count', 'integer', (c) => c.notNull())
        .addColumn('reset_at', 'timestamptz', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('rate_limits_reset_idx').on('rate_limits').column('reset_at').execute();
      // Expired wallet nonces are purged as new ones are issued.
      await db.schema.createIndex('wallet_nonces_expiry_idx').on('wallet_nonces').column('expires_at').execute();
    },
  },
  '0013_withdrawal_nonces': {
    async up(db: Kysely<unknown>) {
      // The hot wallet that signed a withdrawal, and at most one withdrawal per wallet and
      // nonce, whichever server process signs it. Rows signed before keep a null from_address and stay
      // outside the index (two of them may share a nonce, the old bug; the sender refunds the loser).
      await db.schema.alterTable('withdrawals').addColumn('from_address', 'varchar(42)').execute();
      await db.schema.createIndex('withdrawals_nonce_uq').on('withdrawals').columns(['from_address', 'nonce']).unique().execute();
    },
  },
  // The cluster's workers and who owns which bot (server/db/migrations-cluster.ts).
  '0014_workers_and_leases': workersAndLeases,
  '0015_singletons_and_settings': singletonsAndSettings,
  // Manual commands waiting for the bot's owning process.
  '0016_bot_commands': botCommands,
  '0017_bot_signals': {
    async up(db: Kysely<unknown>) {
      // A DCA or custom bot's webhook (its token's SHA-256 only: the token itself is shown
      // once, when made) and every signal it received, acted on once per (bot, alert id).
      await db.schema
        .createTable('bot_webhooks')
        .addColumn('bot_id', 'bigint', (c) => c.primaryKey().references('bots.id'))
        .addColumn('token_hash', 'varchar(64)', (c) => c.notNull().unique())
        .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
        .execute();
      await db.schema
        .createTable('bot_signals')
        .addColumn('id', 'bigserial', (c) => c.primaryKey())
        .addColumn('bot_id', 'bigint', (c) => c.notNull().references('bots.id'))
        // The alert's id (null: a body refused before one could be read).
        .addColumn('signal_id', 'varchar(64)')
        .addColumn('action', 'varchar(8)')
        .addColumn('price', 'varchar(40)')
        .addColumn('amount', 'varchar(40)')
        .addColumn('note', 'varchar(200)')
        // received (recorded, not yet acted on), placed, nothing, ignored (bot not running), busy, expired, error, refused (bad body).
        .addColumn('status', 'varchar(16)', (c) => c.notNull())
        .addColumn('reason', 'varchar(200)')
        .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
        .addColumn('done_at', 'timestamptz')
        .execute();
      await db.schema.createIndex('bot_signals_once_uq').on('bot_signals').columns(['bot_id', 'signal_id']).unique().where(sql.ref('signal_id'), 'is not', null).execute();
      await db.schema.createIndex('bot_signals_bot_idx').on('bot_signals').columns(['bot_id', 'id']).execute();
    },
  },
  // The AI searches' line, one for every process (server/db/migrations-cluster.ts).
  '0018_ai_searches': aiSearchLine,
  '0019_bot_pnl_days': {
    async up(db: Kysely<unknown>) {
      // Each running or holding bot's realised and floating PnL once per UTC day, written by
      // the maintenance duty (server/services/pnl.ts snapshotPnl); the PnL chart's past points read it.
      // One row per bot and day: a second run that day (a restart, another process taking the duty) updates it.
      const money = 'numeric(38,18)';
      await db.schema
        .createTable('bot_pnl_days')
        .addColumn('bot_id', 'bigint', (c) => c.notNull().references('bots.id'))
        .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id'))
        .addColumn('day', 'date', (c) => c.notNull())
        .addColumn('realized', sql.raw(money), (c) => c.notNull())
        .addColumn('unrealized', sql.raw(money), (c) => c.notNull())
        .addColumn('taken_at', 'timestamptz', (c) => c.notNull())
        .addPrimaryKeyConstraint('bot_pnl_days_pk', ['bot_id', 'day'])
        .execute();
      await db.schema.createIndex('bot_pnl_days_user_idx').on('bot_pnl_days').columns(['user_id', 'day']).execute();
    },
  },
  '0020_bot_orders_at_price': {
    async up(db: Kysely<unknown>) {
      // The trigger price an order rests at (PlaceOrder.at), so that an order re-sent after a
      // crash (runner.ts reconcile) rests at the same price as the one sent before it.
      await db.schema.alterTable('bot_orders').addColumn('at_price', sql.raw('numeric(38,18)')).execute();
    },
  },
  '0021_signal_budgets': {
    async up(db: Kysely<unknown>) {
      // A signal webhook's refused bodies are counted on its bot (how many, the last one's time and
      // reason), not stored one by one; and the time of the bot's last signal that acted, so that the
      // next one waits SIGNAL_MIN_GAP_S (claimed in one statement, whichever process receives it).
      await db.schema
        .alterTable('bot_webhooks')
        .addColumn('refused', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('refused_at', 'timestamptz')
        .addColumn('refused_reason', 'varchar(200)')
        .addColumn('acted_at', 'timestamptz')
        .execute();
    },
  },
  '0022_session_tries': {
    async up(db: Kysely<unknown>) {
      // A session's own budget of wrong password and code tries (counted through it, never shared with
      // the account's other sessions): tries_failed settled wrong, tries_pending claimed and being
      // checked, tries_at the last claim; ended_by 'tries' when they ran out. agent, ip and last_seen_at
      // let the security screen list the sessions so the owner can end the others.
      await db.schema
        .alterTable('sessions')
        .addColumn('tries_failed', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('tries_pending', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('tries_at', 'timestamptz')
        .addColumn('ended_by', 'varchar(16)')
        .addColumn('agent', 'varchar(200)', (c) => c.notNull().defaultTo(''))
        .addColumn('ip', 'varchar(100)', (c) => c.notNull().defaultTo(''))
        .addColumn('last_seen_at', 'timestamptz')
        .execute();
      // The hash of a withdrawal's normalised request: its request id sent again with another request is refused.
      await db.schema.alterTable('withdrawals').addColumn('request_hash', 'varchar(64)').execute();
    },
  },
  '0023_fair_ai_line_and_shared_rules': {
    async up(db: Kysely<unknown>) {
      // The AI line hands searches to the workers in its order: a started search is ahead of every waiting one,
      // however many workers run at once (server/services/ai-queue.ts).
      await db.schema.alterTable('ai_searches').addColumn('started_at', 'timestamptz').execute();
      // When each trader's last search ended: a full line's place goes to whoever has waited longer since.
      await db.schema
        .createTable('ai_turns')
        .addColumn('user_id', 'bigint', (c) => c.primaryKey().references('users.id'))
        .addColumn('ended_at', 'timestamptz', (c) => c.notNull())
        .execute();
      // A bot's parameters are on the strategy rank only when its owner shares them (server/services/bot-rank.ts).
      await db.schema
        .alterTable('bots')
        .addColumn('share_rules', 'boolean', (c) => c.notNull().defaultTo(false))
        .execute();
    },
  },
  '0024_withdraw_lock_from_the_change': {
    async up(db: Kysely<unknown>) {
      // A withdrawal lock is kept as the time of the security change, its end counted from it with the
      // operator's current WITHDRAW_LOCK_HOURS: a lock stored under an earlier setting never outlasts the
      // current one. Locks already stored were made with the default of 24 hours.
      await db.schema.alterTable('users').addColumn('withdraw_lock_from', 'timestamptz').execute();
      await sql`update users set withdraw_lock_from = withdraw_locked_until - interval '24 hours' where withdraw_locked_until is not null`.execute(db);
      await db.schema.alterTable('users').dropColumn('withdraw_locked_until').execute();
    },
  },
  '0025_sessions_side_by_side': {
    async up(db: Kysely<unknown>) {
      // A trader's devices stay signed in side by side, several of one kind too (server/services/sessions.ts
      // MAX_SESSIONS): no longer one live session per terminal.
      await db.schema.dropIndex('sessions_live_terminal_idx').execute();
    },
  },
  '0026_webhook_language': {
    async up(db: Kysely<unknown>) {
      // The language the owner made a webhook in: an alert names none, and its answer (a refusal naming the
      // bad field, in words) is read by the owner in the sender's log.
      await db.schema
        .alterTable('bot_webhooks')
        .addColumn('lang', 'varchar(2)', (c) => c.notNull().defaultTo('zh'))
        .execute();
    },
  },
  '0027_user_events': {
    async up(db: Kysely<unknown>) {
      // Each user's last event number: its row is locked by the transaction that writes an event, so a
      // user's numbers are given in commit order and a reconnect that resumes after number n misses nothing.
      await db.schema
        .createTable('user_event_heads')
        .addColumn('user_id', 'bigint', (c) => c.primaryKey().references('users.id'))
        .addColumn('seq', 'bigint', (c) => c.notNull())
        .execute();
      // What the live stream sends, kept for the replay window (server/events/log.ts prunes it).
      await db.schema
        .createTable('user_events')
        .addColumn('user_id', 'bigint', (c) => c.notNull())
        .addColumn('seq', 'bigint', (c) => c.notNull())
        .addColumn('kind', 'varchar(16)', (c) => c.notNull())
        .addColumn('data', 'jsonb', (c) => c.notNull())
        .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
        .addPrimaryKeyConstraint('user_events_pk', ['user_id', 'seq'])
        .execute();
      await db.schema.createIndex('user_events_created_idx').on('user_events').column('created_at').execute();
    },
  },
  '0028_alerts': {
    async up(db: Kysely<unknown>) {
      // The server's VAPID key pair, one for every process (its private half sealed with the server key).
      await db.schema
        .createTable('push_keys')
        .addColumn('id', 'integer', (c) => c.primaryKey())
        .addColumn('public_key', 'varchar(120)', (c) => c.notNull())
        .addColumn('private_sealed', 'text', (c) => c.notNull())
        .execute();
      // A device's push subscription, tied to the session that made it: that session's end deletes it.
      await db.schema
        .createTable('push_subscriptions')
        .addColumn('id', 'bigserial', (c) => c.primaryKey())
        .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id'))
        .addColumn('session_id', 'bigint', (c) => c.notNull())
        .addColumn('endpoint', 'varchar(1000)', (c) => c.notNull().unique())
        .addColumn('p256dh', 'varchar(200)', (c) => c.notNull())
        .addColumn('auth', 'varchar(200)', (c) => c.notNull())
        .addColumn('lang', 'varchar(2)', (c) => c.notNull().defaultTo('zh'))
        .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
        .execute();
      await db.schema.createIndex('push_subscriptions_user_idx').on('push_subscriptions').column('user_id').execute();
      // What each kind does, quiet hours, and the account's webhook (its secret sealed).
      await db.schema
        .createTable('alert_settings')
        .addColumn('user_id', 'bigint', (c) => c.primaryKey().references('users.id'))
        .addColumn('modes', 'jsonb', (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
        .addColumn('quiet', 'jsonb')
        .addColumn('webhook_url', 'varchar(2000)')
        .addColumn('webhook_sealed', 'text')
        .addColumn('lang', 'varchar(2)', (c) => c.notNull().defaultTo('zh'))
        .execute();
      // Alerts waiting to go out: one row per user and topic, so a burst of fills of one bot is one push
      // ("3 fills") sent at most once a minute; the sender takes due rows, sends, deletes them.
      await db.schema
        .createTable('alert_outbox')
        .addColumn('id', 'bigserial', (c) => c.primaryKey())
        .addColumn('user_id', 'bigint', (c) => c.notNull())
        .addColumn('topic', 'varchar(64)', (c) => c.notNull())
        .addColumn('kind', 'varchar(16)', (c) => c.notNull())
        .addColumn('data', 'jsonb', (c) => c.notNull())
        .addColumn('count', 'integer', (c) => c.notNull().defaultTo(1))
        .addColumn('send_after', 'timestamptz', (c) => c.notNull())
        .addColumn('attempt', 'integer', (c) => c.notNull().defaultTo(0))
        .addUniqueConstraint('alert_outbox_topic', ['user_id', 'topic'])
        .execute();
      await db.schema.createIndex('alert_outbox_due_idx').on('alert_outbox').column('send_after').execute();
      // When each user's topic last went out (the once-a-minute batching), and how far the alerts have read each user's events.
      await db.schema
        .createTable('alert_sent')
        .addColumn('user_id', 'bigint', (c) => c.notNull())
        .addColumn('topic', 'varchar(64)', (c) => c.notNull())
        .addColumn('at', 'timestamptz', (c) => c.notNull())
        .addPrimaryKeyConstraint('alert_sent_pk', ['user_id', 'topic'])
        .execute();
      await db.schema
        .createTable('alert_cursors')
        .addColumn('user_id', 'bigint', (c) => c.primaryKey())
        .addColumn('seq', 'bigint', (c) => c.notNull())
        .execute();
    },
  },
  '0029_exchange_health': {
    async up(db: Kysely<unknown>) {
      // Whether each exchange answers, as the processes last saw it: a change is told to the traders once,
      // by the process whose update changed the row, however many processes saw it.
      await db.schema
        .createTable('exchange_health')
        .addColumn('exchange', 'varchar(32)', (c) => c.primaryKey())
        .addColumn('state', 'varchar(8)', (c) => c.notNull())
        .addColumn('changed_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
        .execute();
    },
  },
  '0030_alert_targets_done': {
    async up(db: Kysely<unknown>) {
      // The devices and the webhook an alert already reached: a retry asks again only those that asked for
      // one (a push service busy for one device must not send the others the same alert twice).
      await db.schema
        .alterTable('alert_outbox')
        .addColumn('done', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
        .execute();
    },
  },
  '0031_paper_resting_orders': {
    async up(db: Kysely<unknown>) {
      const money = 'numeric(38,18)';
      // Limit orders on Paper: an order rests at its price (open) until the market reaches it or it is
      // cancelled; what it would spend is locked meanwhile (a buy's quote, a sell's base), as a venue does.
      await db.schema
        .alterTable('paper_orders')
        .addColumn('kind', 'varchar(8)', (c) => c.notNull().defaultTo('market'))
        .addColumn('limit_price', sql.raw(money))
        .addColumn('amount', sql.raw(money))
        .addColumn('post_only', 'boolean', (c) => c.notNull().defaultTo(false))
        .execute();
      await db.schema.createIndex('paper_orders_open_idx').on('paper_orders').columns(['exchange_id', 'symbol']).where(sql.ref('status'), '=', 'open').execute();
      await db.schema
        .alterTable('paper_balances')
        .addColumn('locked', sql.raw(money), (c) => c.notNull().defaultTo('0'))
        .execute();
      // Each fill of an order as the venue reports it: a trade id of its own, its price, the fee, maker or taker.
      await db.schema
        .createTable('paper_trades')
        .addColumn('id', 'bigserial', (c) => c.primaryKey())
        .addColumn('client_order_id', 'varchar(64)', (c) => c.notNull())
        .addColumn('user_id', 'bigint', (c) => c.notNull())
        .addColumn('exchange_id', 'integer', (c) => c.notNull())
        .addColumn('symbol', 'varchar(41)', (c) => c.notNull())
        .addColumn('side', 'varchar(4)', (c) => c.notNull())
        .addColumn('price', sql.raw(money), (c) => c.notNull())
        .addColumn('amount', sql.raw(money), (c) => c.notNull())
        .addColumn('cost', sql.raw(money), (c) => c.notNull())
        .addColumn('fee', sql.raw(money), (c) => c.notNull())
        .addColumn('fee_currency', 'varchar(16)', (c) => c.notNull())
        .addColumn('maker', 'boolean', (c) => c.notNull())
        .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
        .execute();
      await db.schema.createIndex('paper_trades_order_idx').on('paper_trades').column('client_order_id').execute();
    },
  },
  '0032_order_steps_and_fills': {
    async up(db: Kysely<unknown>) {
      const money = 'numeric(38,18)';
      // An order's phases (server/store/order-states.ts) are longer than the three it had.
      await db.schema
        .alterTable('bot_orders')
        .alterColumn('status', (c) => c.setDataType('varchar(16)'))
        .execute();
      // Every step of every order, as it was taken: the audit of what the engine believed, and when.
      await db.schema
        .createTable('bot_order_steps')
        .addColumn('id', 'bigserial', (c) => c.primaryKey())
        .addColumn('client_order_id', 'varchar(64)', (c) => c.notNull())
        .addColumn('bot_id', 'bigint', (c) => c.notNull())
        .addColumn('from_phase', 'varchar(16)')
        .addColumn('to_phase', 'varchar(16)', (c) => c.notNull())
        .addColumn('detail', 'jsonb')
        .addColumn('at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
        .execute();
      await db.schema.createIndex('bot_order_steps_order_idx').on('bot_order_steps').columns(['client_order_id', 'id']).execute();
      // Each fill of an order once, by the venue's trade id: the same fill seen by a poll and after a restart is one.
      await db.schema
        .createTable('bot_order_fills')
        .addColumn('id', 'bigserial', (c) => c.primaryKey())
        .addColumn('client_order_id', 'varchar(64)', (c) => c.notNull())
        .addColumn('bot_id', 'bigint', (c) => c.notNull())
        .addColumn('trade_id', 'varchar(64)', (c) => c.notNull())
        .addColumn('price', sql.raw(money), (c) => c.notNull())
        .addColumn('amount', sql.raw(money), (c) => c.notNull())
        .addColumn('cost', sql.raw(money), (c) => c.notNull())
        .addColumn('fee', sql.raw(money))
        .addColumn('fee_currency', 'varchar(16)')
        .addColumn('maker', 'boolean', (c) => c.notNull())
        .addColumn('filled_at', 'timestamptz', (c) => c.notNull())
        .addUniqueConstraint('bot_order_fills_trade', ['client_order_id', 'trade_id'])
        .execute();
    },
  },
  '0033_order_lookups_missed': {
    async up(db: Kysely<unknown>) {
      // How often a live venue's lookup has not found an order that was sent: the third miss (and a
      // targeted query) makes it lost. Kept with the order, so any process that takes the bot counts on.
      await db.schema
        .alterTable('bot_orders')
        .addColumn('misses', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
    },
  },
  '0034_bot_sync': {
    async up(db: Kysely<unknown>) {
      // When a reconciliation round last found the bot's books and its exchange account in agreement, and
      // what it found otherwise: the bot's screen says "in sync, checked 12 s ago", or what differs.
      await db.schema.alterTable('bots').addColumn('synced_at', 'timestamptz').addColumn('sync_problem', 'varchar(32)').execute();
    },
  },
  '0035_account_health': {
    async up(db: Kysely<unknown>) {
      // Each exchange account's order calls that failed in a row, and since when it counts as out of
      // reach (engine/account-health.ts): every process reads it, so an outage one of them saw holds on all.
      await db.schema
        .createTable('account_health')
        .addColumn('user_id', 'bigint', (c) => c.notNull())
        .addColumn('exchange_id', 'integer', (c) => c.notNull())
        .addColumn('failures', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('down_since', 'timestamptz')
        .addPrimaryKeyConstraint('account_health_pk', ['user_id', 'exchange_id'])
        .execute();
    },
  },
  '0036_pair_health': {
    async up(db: Kysely<unknown>) {
      // A pair the engine found without a fresh price, since when: one row per episode, so that its
      // traders are warned once and told once when it is over, whichever process sees it (engine/pair-health.ts).
      await db.schema
        .createTable('pair_health')
        .addColumn('exchange', 'varchar(32)', (c) => c.notNull())
        .addColumn('symbol', 'varchar(32)', (c) => c.notNull())
        .addColumn('stale_since', 'timestamptz', (c) => c.notNull())
        .addPrimaryKeyConstraint('pair_health_pk', ['exchange', 'symbol'])
        .execute();
    },
  },
  '0037_order_not_after': {
    async up(db: Kysely<unknown>) {
      // The moment after which the venue can no longer take an order's request (its receive window, as the
      // request was signed): an order not found after it never reached the venue (engine/lost-orders.ts).
      await db.schema.alterTable('bot_orders').addColumn('not_after', 'timestamptz').execute();
    },
  },
  '0038_resting_order_slots': {
    async up(db: Kysely<unknown>) {
      // A limit order a bot keeps resting on its venue names the place in its plan it stands for (a grid's
      // level "L3", a martin bot's "add" or "take_profit": strategy/resting.ts); null: an order sent at market.
      await db.schema.alterTable('bot_orders').addColumn('slot', 'varchar(16)').execute();
      await db.schema.createIndex('bot_orders_resting_idx').on('bot_orders').column('bot_id').where(sql.ref('slot'), 'is not', null).execute();
      // When a Paper order last filled: fills the engine finds together are taken in the order they happened.
      await db.schema.alterTable('paper_orders').addColumn('filled_at', 'timestamptz').execute();
    },
  },
  '0039_resting_order_lookups': {
    async up(db: Kysely<unknown>) {
      // With thousands of limit orders resting on Paper, a round's match reads only the orders the price
      // crosses (a range of each side's limit prices), not every open order of the pair; an account's open
      // orders are read by the account; a bot's resting orders that may stand, not every one it ever placed.
      await db.schema.createIndex('paper_orders_open_limit_idx').on('paper_orders').columns(['exchange_id', 'symbol', 'side', 'limit_price']).where(sql.ref('status'), '=', 'open').execute();
      await db.schema.dropIndex('paper_orders_open_idx').execute();
      await db.schema.createIndex('paper_orders_open_user_idx').on('paper_orders').columns(['user_id', 'exchange_id', 'symbol']).where(sql.ref('status'), '=', 'open').execute();
      await sql`create index bot_orders_resting_live_idx on bot_orders (bot_id)
        where slot is not null and status in ('new', 'submitted', 'open', 'partially_filled', 'pending_cancel', 'lost')`.execute(db);
    },
  },
  '0040_paper_perpetuals': {
    async up(db: Kysely<unknown>) {
      // Paper's USDT-margined perpetuals (server/exchanges/paper-perpetual.ts): a futures wallet apart from
      // the spot balances (money moves between them by transfers), one isolated position per contract in
      // one-way mode, a ledger line for every change of a wallet or a margin, and each contract's funding
      // times settled once.
      const money = 'numeric(38,18)';
      await db.schema
        .createTable('paper_perp_wallets')
        .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id'))
        .addColumn('exchange_id', 'integer', (c) => c.notNull())
        .addColumn('balance', sql.raw(money), (c) => c.notNull())
        .addPrimaryKeyConstraint('paper_perp_wallets_pk', ['user_id', 'exchange_id'])
        .execute();
      await db.schema
        .createTable('paper_perp_positions')
        .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id'))
        .addColumn('exchange_id', 'integer', (c) => c.notNull())
        .addColumn('symbol', 'varchar(41)', (c) => c.notNull())
        .addColumn('side', 'varchar(5)', (c) => c.notNull())
        .addColumn('size', sql.raw(money), (c) => c.notNull())
        .addColumn('entry', sql.raw(money), (c) => c.notNull())
        .addColumn('margin', sql.raw(money), (c) => c.notNull())
        .addColumn('leverage', 'integer', (c) => c.notNull())
        .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
        .addPrimaryKeyConstraint('paper_perp_positions_pk', ['user_id', 'exchange_id', 'symbol'])
        .execute();
      await db.schema.createIndex('paper_perp_positions_symbol_idx').on('paper_perp_positions').columns(['exchange_id', 'symbol']).execute();
      await db.schema
        .createTable('paper_perp_ledger')
        .addColumn('id', 'bigserial', (c) => c.primaryKey())
        // null: the venue's own line (insurance).
        .addColumn('user_id', 'bigint')
        .addColumn('exchange_id', 'integer', (c) => c.notNull())
        .addColumn('symbol', 'varchar(41)')
        .addColumn('kind', 'varchar(16)', (c) => c.notNull())
        .addColumn('amount', sql.raw(money), (c) => c.notNull())
        .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
        .execute();
      await db.schema.createIndex('paper_perp_ledger_user_idx').on('paper_perp_ledger').columns(['user_id', 'exchange_id', 'id']).execute();
      await db.schema
        .createTable('paper_perp_fundings')
        .addColumn('exchange_id', 'integer', (c) => c.notNull())
        .addColumn('symbol', 'varchar(41)', (c) => c.notNull())
        .addColumn('funding_time', 'bigint', (c) => c.notNull())
        .addColumn('rate', sql.raw(money), (c) => c.notNull())
        .addColumn('mark', sql.raw(money), (c) => c.notNull())
        .addPrimaryKeyConstraint('paper_perp_fundings_pk', ['exchange_id', 'symbol', 'funding_time'])
        .execute();
    },
  },
};
