import type { ColumnType, Generated } from 'kysely';

export interface UsersTable {
  id: Generated<string>;
  sn: string;
  account: string | null;
  password_hash: string | null;
  payment_hash: string | null;
  nickname: string;
  email: string;
  mobile: string;
  address: string | null;
  avatar: string;
  referrer_id: string | null;
  referrer_changed: Generated<boolean>;
  disabled: Generated<boolean>;
  created_at: ColumnType<Date, never, never>;
  /** The TOTP secret sealed with the SecretBox; null: 2FA off. */
  totp_sealed: ColumnType<string | null, string | null | undefined, string | null>;
  /** A secret being set up, sealed, until a first code confirms it. */
  totp_pending: ColumnType<string | null, string | null | undefined, string | null>;
  /** The last 30-second step whose code was accepted: each code works once. */
  totp_last_step: ColumnType<string | null, string | number | null | undefined, string | number | null>;
  /** sha256 of each unused recovery code. */
  recovery_hashes: ColumnType<string[] | null, string | null | undefined, string | null>;
  /** The last security change (a password, 2FA turned off): withdrawals wait WITHDRAW_LOCK_HOURS from it. */
  withdraw_lock_from: ColumnType<Date | null, Date | null | undefined, Date | null>;
}

export interface SessionsTable {
  id: Generated<string>;
  user_id: string;
  token_hash: string;
  terminal: number;
  created_at: ColumnType<Date, never, never>;
  expires_at: Date;
  revoked_at: Date | null;
  /** The session's wrong password / code tries, settled and being checked, and the last claim (security/session-tries.ts). */
  tries_failed: Generated<number>;
  tries_pending: Generated<number>;
  tries_at: Date | null;
  /** Why it was revoked, when that is worth saying: 'tries' (its wrong tries ran out), 'replaced' (a login past MAX_SESSIONS ended it). */
  ended_by: string | null;
  /** The browser's user agent (cut to 200) and the source IP of the login, and when it was last used (to the minute). */
  agent: Generated<string>;
  ip: Generated<string>;
  last_seen_at: Date | null;
}

export interface ExchangeKeysTable {
  id: Generated<string>;
  user_id: string;
  exchange_id: number;
  /** The API key shown to its owner: first 4 and last 4 characters. */
  api_key_masked: string;
  /** api key, secret and passphrase, sealed together (security/secret-box.ts). */
  sealed: string;
  created_at: ColumnType<Date, never, never>;
  updated_at: ColumnType<Date, Date | undefined, Date>;
}

/** Numeric columns: decimal strings in and out (PGlite and pg both answer strings). */
type Numeric = ColumnType<string, string, string>;
type NullableNumeric = ColumnType<string | null, string | null | undefined, string | null>;
type CreatedAt = ColumnType<Date, never, never>;

export interface BotsTable {
  id: Generated<string>;
  user_id: string;
  exchange_id: number;
  symbol: string;
  type: string;
  name: string;
  /** The trader's parameters (contract/bots.ts MartinParamsInput). */
  params: ColumnType<unknown, string, string>;
  status: 'running' | 'paused' | 'stopped';
  /** The strategy's state (engine/martin/state-codec.ts). */
  state: ColumnType<unknown, string, string>;
  realized: ColumnType<string, string | undefined, string>;
  error: string | null;
  created_at: CreatedAt;
  updated_at: ColumnType<Date, Date | undefined, Date>;
  deleted_at: Date | null;
  /** The owner shows the bot's parameters on the strategy rank (off: its figures only). */
  share_rules: ColumnType<boolean, boolean | undefined, boolean>;
  /** When a reconciliation round last found its books and its account in agreement (engine/reconciliation.ts). */
  synced_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
  /** What the last round found otherwise: unanswered (the exchange did not answer), balance_short. */
  sync_problem: ColumnType<string | null, string | null | undefined, string | null>;
}

export interface BotOrdersTable {
  id: Generated<string>;
  bot_id: string;
  client_order_id: string;
  cycle: number;
  seq: number;
  side: 'buy' | 'sell';
  reason: string;
  quote: NullableNumeric;
  amount: NullableNumeric;
  /** The trigger price the order rests at (PlaceOrder.at): a re-send after a crash rests there too. */
  at_price: NullableNumeric;
  /** Its phase (server/store/order-states.ts); every step is in bot_order_steps. */
  status: 'new' | 'submitted' | 'open' | 'partially_filled' | 'filled' | 'pending_cancel' | 'cancelled' | 'rejected' | 'expired' | 'lost';
  price: NullableNumeric;
  filled: NullableNumeric;
  cost: NullableNumeric;
  fee: NullableNumeric;
  fee_currency: string | null;
  created_at: CreatedAt;
  updated_at: ColumnType<Date, Date | undefined, Date>;
  /** Lookups on a live venue that did not find it since it was sent (lost at the third: engine/lost-orders.ts). */
  misses: ColumnType<number, number | undefined, number>;
  /** Sent with a receive window: the moment after which the venue can no longer take it (engine/lost-orders.ts); null: no window. */
  not_after: ColumnType<Date | null, Date | null | undefined, Date | null>;
  /** A resting limit order's place in its bot's plan (strategy/resting.ts; its price is at_price); null: a market order. */
  slot: ColumnType<string | null, string | null | undefined, string | null>;
}

export interface BotActionsTable {
  id: Generated<string>;
  bot_id: string;
  kind: string;
  detail: ColumnType<Record<string, string>, string, string>;
  created_at: ColumnType<Date, Date | undefined, never>;
}

export interface BotCyclesTable {
  id: Generated<string>;
  bot_id: string;
  user_id: string;
  cycle: number;
  entries: number;
  amount: Numeric;
  cost: Numeric;
  close_price: Numeric;
  profit: Numeric;
  opened_at: Date | null;
  closed_at: ColumnType<Date, Date | undefined, never>;
}

export interface PaperBalancesTable {
  user_id: string;
  /** 1: Paper; or a simulated account on a live exchange's prices (exchanges/catalog.ts). */
  exchange_id: ColumnType<number, number | undefined, number>;
  currency: string;
  amount: Numeric;
  /** What the account's open limit orders hold of it (a buy's quote, a sell's base): not free to spend. */
  locked: ColumnType<string, string | undefined, string>;
}

export interface PaperOrdersTable {
  client_order_id: string;
  user_id: string;
  exchange_id: ColumnType<number, number | undefined, number>;
  symbol: string;
  side: 'buy' | 'sell';
  /** open: a limit order resting; canceled: cancelled, or an IOC/FOK limit that could not fill. */
  status: 'open' | 'closed' | 'canceled' | 'rejected';
  /** The average fill price (null until it fills). */
  price: NullableNumeric;
  filled: Numeric;
  cost: Numeric;
  fee: NullableNumeric;
  fee_currency: string | null;
  reason: string | null;
  created_at: CreatedAt;
  kind: ColumnType<'market' | 'limit', 'market' | 'limit' | undefined, 'market' | 'limit'>;
  /** A limit order's price and amount (base). */
  limit_price: NullableNumeric;
  amount: NullableNumeric;
  post_only: ColumnType<boolean, boolean | undefined, boolean>;
  /** When it last filled (a resting order's match, or at once). */
  filled_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
}

/** Each fill of a Paper order, as a venue reports its trades. */
export interface PaperTradesTable {
  id: Generated<string>;
  client_order_id: string;
  user_id: string;
  exchange_id: number;
  symbol: string;
  side: 'buy' | 'sell';
  price: Numeric;
  amount: Numeric;
  cost: Numeric;
  fee: Numeric;
  fee_currency: string;
  maker: boolean;
  created_at: CreatedAt;
}

export interface BatchTasksTable {
  id: string;
  user_id: string;
  action: string;
  ids: ColumnType<string[], string, string>;
  results: ColumnType<{ id: string; ok: boolean; code: number; msg: string }[], string, string>;
  status: 'running' | 'done';
  created_at: CreatedAt;
}

export interface WalletNoncesTable {
  nonce: string;
  address: string;
  message: string;
  expires_at: Date;
  used_at: Date | null;
  created_at: CreatedAt;
  /** login (sign-in, wallet binding) or payment (setting the payment password). */
  purpose: ColumnType<string, string | undefined, string>;
}

export interface WithdrawalAddressesTable {
  user_id: string;
  address: string;
  usable_at: Date;
  created_at: CreatedAt;
}

export interface KnownDevicesTable {
  user_id: string;
  device: string;
  last_seen: ColumnType<Date, Date | undefined, Date>;
}

export interface UserBalancesTable {
  user_id: string;
  asset: string;
  amount: ColumnType<string, string | undefined, string>;
}

export interface AccountLogsTable {
  id: Generated<string>;
  user_id: string;
  asset: string;
  amount: string;
  balance: string;
  reason: string;
  detail: ColumnType<Record<string, string>, string, string>;
  created_at: CreatedAt;
}

export interface NoticesTable {
  id: Generated<string>;
  user_id: string;
  kind: 'warning' | 'notice';
  code: string;
  detail: ColumnType<Record<string, string>, string, string>;
  read_at: Date | null;
  created_at: CreatedAt;
}

export interface ChainCursorsTable {
  name: string;
  /** bigint: the pg driver answers it as a string. */
  block: ColumnType<string, string, string>;
  updated_at: ColumnType<Date, never, Date>;
}

export interface DepositsTable {
  id: Generated<string>;
  user_id: string | null;
  tx_hash: string;
  log_index: number;
  block_number: string | null;
  from_address: string | null;
  amount: string | null;
  status: 'submitted' | 'credited' | 'unmatched';
  created_at: CreatedAt;
  credited_at: Date | null;
}

export interface WithdrawalsTable {
  id: Generated<string>;
  user_id: string;
  request_id: string;
  address: string;
  amount: string;
  fee: string;
  status: 'pending' | 'signed' | 'sent' | 'confirmed' | 'failed';
  /** The hot wallet that signed raw_tx (null on rows signed). */
  from_address: string | null;
  nonce: string | null;
  raw_tx: string | null;
  tx_hash: string | null;
  error: string | null;
  created_at: CreatedAt;
  updated_at: ColumnType<Date, never, Date>;
  /** sha256 of the normalised request (funds/request-hash.ts); null on rows made before it was kept. */
  request_hash: string | null;
}

export interface AiBotsTable {
  bot_id: string;
  risk: 'conservative' | 'balanced' | 'aggressive';
  tuned_at: ColumnType<Date, Date | undefined, Date>;
}

/** Failed logins (and checks of secrets behind a session) per key: account+source, account, source. */
export interface LoginAttemptsTable {
  key: string;
  failures: number;
  last_at: Date;
}

/** Solved proof-of-work challenges (their nonce), kept until they expire so that none is used twice. */
export interface UsedChallengesTable {
  nonce: string;
  expires_at: Date;
}

/** Requests per source and window of the calls that need no token (the PostgreSQL rate-limit store). */
export interface RateLimitsTable {
  key: string;
  count: number;
  reset_at: Date;
}

export interface Database {
  users: UsersTable;
  sessions: SessionsTable;
  exchange_keys: ExchangeKeysTable;
  bots: BotsTable;
  bot_orders: BotOrdersTable;
  bot_actions: BotActionsTable;
  bot_cycles: BotCyclesTable;
  paper_balances: PaperBalancesTable;
  paper_orders: PaperOrdersTable;
  batch_tasks: BatchTasksTable;
  wallet_nonces: WalletNoncesTable;
  user_balances: UserBalancesTable;
  account_logs: AccountLogsTable;
  notices: NoticesTable;
  chain_cursors: ChainCursorsTable;
  deposits: DepositsTable;
  withdrawals: WithdrawalsTable;
  ai_bots: AiBotsTable;
  withdrawal_addresses: WithdrawalAddressesTable;
  known_devices: KnownDevicesTable;
  login_attempts: LoginAttemptsTable;
  used_challenges: UsedChallengesTable;
  rate_limits: RateLimitsTable;
  ai_turns: AiTurnsTable;
  user_event_heads: UserEventHeadsTable;
  user_events: UserEventsTable;
  push_keys: PushKeysTable;
  push_subscriptions: PushSubscriptionsTable;
  alert_settings: AlertSettingsTable;
  alert_outbox: AlertOutboxTable;
  alert_sent: AlertSentTable;
  alert_cursors: AlertCursorsTable;
  exchange_health: ExchangeHealthTable;
  paper_trades: PaperTradesTable;
  bot_order_steps: BotOrderStepsTable;
  bot_order_fills: BotOrderFillsTable;
  account_health: AccountHealthTable;
  pair_health: PairHealthTable;
  paper_perp_wallets: PaperPerpWalletsTable;
  paper_perp_positions: PaperPerpPositionsTable;
  paper_perp_ledger: PaperPerpLedgerTable;
  paper_perp_fundings: PaperPerpFundingsTable;
}

/** A Paper account's futures wallet (USDT): what is not set aside as a position's margin. */
export interface PaperPerpWalletsTable {
  user_id: string;
  exchange_id: number;
  balance: Numeric;
}

/** One isolated position per account and contract, one-way mode (strategy/perpetual/margin.ts). */
export interface PaperPerpPositionsTable {
  user_id: string;
  exchange_id: number;
  symbol: string;
  side: 'long' | 'short';
  size: Numeric;
  entry: Numeric;
  margin: Numeric;
  leverage: number;
  updated_at: ColumnType<Date, Date | undefined, Date>;
}

/** Every change of a futures wallet or a margin: a fee, funding, realised profit, margin in or out, a transfer, a liquidation; null user: the venue's insurance line. */
export interface PaperPerpLedgerTable {
  id: Generated<string>;
  user_id: string | null;
  exchange_id: number;
  symbol: string | null;
  kind: 'transfer' | 'fee' | 'realised' | 'margin_in' | 'margin_out' | 'funding' | 'liquidation' | 'insurance';
  amount: Numeric;
  created_at: CreatedAt;
}

/** A contract's funding time, settled once (its rate and the mark it was paid at). */
export interface PaperPerpFundingsTable {
  exchange_id: number;
  symbol: string;
  funding_time: ColumnType<string, string | number, string | number>;
  rate: Numeric;
  mark: Numeric;
}

/** An exchange account's failed order calls in a row, and since when it is out of reach (engine/account-health.ts). */
export interface AccountHealthTable {
  user_id: string;
  exchange_id: number;
  failures: ColumnType<number, number | undefined, number>;
  down_since: ColumnType<Date | null, Date | null | undefined, Date | null>;
}

/** A pair the engine found without a fresh price, since when: one row per episode (server/engine/pair-health.ts). */
export interface PairHealthTable {
  exchange: string;
  symbol: string;
  stale_since: Date;
}

/** Every step an order took (server/store/order-steps.ts). */
export interface BotOrderStepsTable {
  id: Generated<string>;
  client_order_id: string;
  bot_id: string;
  /** null: the order's first record (new). */
  from_phase: string | null;
  to_phase: string;
  detail: unknown;
  at: CreatedAt;
}

/** Each fill of an order once, by the venue's trade id. */
export interface BotOrderFillsTable {
  id: Generated<string>;
  client_order_id: string;
  bot_id: string;
  trade_id: string;
  price: Numeric;
  amount: Numeric;
  cost: Numeric;
  fee: NullableNumeric;
  fee_currency: string | null;
  maker: boolean;
  filled_at: Date;
}

/** Whether each exchange answers (server/exchanges/exchange-status.ts). */
export interface ExchangeHealthTable {
  exchange: string;
  state: string;
  changed_at: Generated<Date>;
}

/** The server's VAPID key pair (server/push/keys.ts). */
export interface PushKeysTable {
  id: number;
  public_key: string;
  private_sealed: string;
}

/** A device's push subscription, tied to the session that made it. */
export interface PushSubscriptionsTable {
  id: Generated<string>;
  user_id: string;
  session_id: string;
  endpoint: string;
  p256dh: string;
  auth: string;
  lang: Generated<string>;
  created_at: Generated<Date>;
}

/** What each alert kind does for a user, quiet hours, the webhook. */
export interface AlertSettingsTable {
  user_id: string;
  modes: Generated<unknown>;
  quiet: unknown | null;
  webhook_url: string | null;
  webhook_sealed: string | null;
  lang: Generated<string>;
}

/** Alerts waiting to go out, one per user and topic (server/push/dispatch.ts). */
export interface AlertOutboxTable {
  id: Generated<string>;
  user_id: string;
  topic: string;
  kind: string;
  data: unknown;
  count: Generated<number>;
  send_after: Date;
  attempt: Generated<number>;
  /** The targets it already reached (`push:<subscription id>`, `webhook`): a retry skips them. */
  done: Generated<unknown>;
}

export interface AlertSentTable {
  user_id: string;
  topic: string;
  at: Date;
}

export interface AlertCursorsTable {
  user_id: string;
  seq: string;
}

/** Each user's last live-event number (server/events/log.ts). */
export interface UserEventHeadsTable {
  user_id: string;
  seq: string;
}

/** The live events of the replay window, by user and number (server/events/log.ts). */
export interface UserEventsTable {
  user_id: string;
  seq: string;
  kind: string;
  data: unknown;
  created_at: Generated<Date>;
}

/** When each trader's last AI search ended (server/services/ai-queue.ts: who yields a full line's place). */
export interface AiTurnsTable {
  user_id: string;
  ended_at: Date;
}
