import type Decimal from 'decimal.js';
import type { Kysely, Transaction } from 'kysely';
import type { CodeName } from '../contract/codes.ts';
import type { Page } from '../contract/envelope.ts';
import type { AccountLog } from '../contract/funds.ts';
import type { Database } from './db/schema.ts';
import type { Db } from './db/connect.ts';
import { money } from '../strategy/money.ts';
import { fail } from './errors.ts';
import { later } from './events/outbox.ts';

/**
 * The platform balances: USDT balance, fuel, points and rewards, exact decimals. A balance
 * changes only through `post`, inside the caller's transaction, with the row locked and a log line
 * written in the same transaction: the log's running balance always equals the balance.
 */
export const assets = ['usdt', 'fuel', 'points', 'rewards'] as const;
export type Asset = (typeof assets)[number];

export type LedgerReason = 'welcome' | 'profit_fee' | 'deposit' | 'withdraw' | 'refund' | 'change' | 'reward' | 'adjust';

const shortOf: Record<Asset, CodeName> = { usdt: 'InsufficientFunds', fuel: 'InsufficientFuel', points: 'InsufficientFunds', rewards: 'InsufficientFunds' };

export interface Posted {
  /** What was applied (less than asked when `floorAtZero` stopped at zero). */
  applied: Decimal;
  balance: Decimal;
}

type Tx = Transaction<Database> | Kysely<Database>;

/**
 * Adds `amount` (negative: takes) to a user's balance of `asset`. Taking more than there is fails with
 * the asset's "insufficient" code, or with `floorAtZero` takes what is there.
 */
export async function post(tx: Tx, entry: { userId: string; asset: Asset; amount: Decimal; reason: LedgerReason; detail?: Record<string, string>; floorAtZero?: boolean }): Promise<Posted> {
  const before = await lockBalance(tx, entry.userId, entry.asset);
  let applied = entry.amount;
  if (before.plus(applied).lt(0)) {
    if (!entry.floorAtZero) throw fail(shortOf[entry.asset]);
    applied = before.neg();
  }
  const balance = before.plus(applied);
  await tx.updateTable('user_balances').set({ amount: balance.toFixed() }).where('user_id', '=', entry.userId).where('asset', '=', entry.asset).execute();
  await tx
    .insertInto('account_logs')
    .values({ user_id: entry.userId, asset: entry.asset, amount: applied.toFixed(), balance: balance.toFixed(), reason: entry.reason, detail: JSON.stringify(entry.detail ?? {}) })
    .execute();
  // The open app shows the new balance now; the event says only which one changed.
  await later(tx as Db, entry.userId, { kind: 'balance', asset: entry.asset });
  return { applied, balance };
}

/**
 * Locks a user's balance of `asset` until the transaction ends (creating it at 0 if it never moved) and
 * answers it. `post` takes it; a caller that must lock it before other rows (a fixed lock order) takes it first.
 */
export async function lockBalance(tx: Tx, userId: string, asset: Asset): Promise<Decimal> {
  await tx
    .insertInto('user_balances')
    .values({ user_id: userId, asset })
    .onConflict((c) => c.columns(['user_id', 'asset']).doNothing())
    .execute();
  const row = await tx.selectFrom('user_balances').select('amount').where('user_id', '=', userId).where('asset', '=', asset).forUpdate().executeTakeFirstOrThrow();
  return money(row.amount);
}

/** A user's balances (0 for an asset never touched), as exact decimal strings. */
export async function balances(db: Tx, userId: string): Promise<Record<Asset, string>> {
  const rows = await db.selectFrom('user_balances').select(['asset', 'amount']).where('user_id', '=', userId).execute();
  const out = { usdt: '0', fuel: '0', points: '0', rewards: '0' } as Record<Asset, string>;
  for (const r of rows) if ((assets as readonly string[]).includes(r.asset)) out[r.asset as Asset] = money(r.amount).toFixed();
  return out;
}

/** The account logs of a user, newest first, one asset or all (docs/product.md §9: 20 a page by default). */
export async function accountLogs(db: Tx, userId: string, asset: Asset | undefined, page: number, pageSize: number): Promise<Page<AccountLog>> {
  let list = db.selectFrom('account_logs').selectAll().where('user_id', '=', userId);
  let count = db
    .selectFrom('account_logs')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('user_id', '=', userId);
  if (asset) {
    list = list.where('asset', '=', asset);
    count = count.where('asset', '=', asset);
  }
  const [rows, total] = await Promise.all([
    list
      .orderBy('id', 'desc')
      .limit(pageSize)
      .offset((page - 1) * pageSize)
      .execute(),
    count.executeTakeFirstOrThrow(),
  ]);
  return {
    list: rows.map((r) => ({
      id: String(r.id),
      asset: r.asset as Asset,
      amount: money(r.amount).toFixed(),
      balance: money(r.balance).toFixed(),
      reason: r.reason as AccountLog['reason'],
      detail: r.detail,
      createdAt: r.created_at.toISOString(),
    })),
    total: Number(total.n),
    page,
    page_size: pageSize,
  };
}
