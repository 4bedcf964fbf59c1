import Decimal from 'decimal.js';
import { getAddress, isAddress } from 'viem';
import type { WithdrawInfo, WithdrawalRecord } from '../../../contract/funds.ts';
import type { ChainSide } from '../../chain/chain-side.ts';
import type { Db } from '../../db/connect.ts';
import type { WithdrawalsTable } from '../../db/schema.ts';
import { money } from '../../../strategy/money.ts';
import { fail } from '../../errors.ts';
import { balances, post } from '../../ledger.ts';
import type { LoginLimiter } from '../login-limiter.ts';
import type { SessionRef } from '../security/session-tries.ts';
import { requestHash } from './request-hash.ts';
import { checkPaymentPassword } from '../password-change.ts';
import { userById } from '../users.ts';
import { checkNetwork } from './network.ts';
import type { SecretBox } from '../../security/secret-box.ts';
import { checkWithdrawAddress, checkWithdrawLock, lockedUntil, securityNotice } from '../security/lock.ts';
import { requireSecondFactor } from '../security/two-factor.ts';
import { inTransaction, later } from '../../events/outbox.ts';

/**
 * Withdrawals of USDT on chain 56. Asking debits the balance and records the request in
 * one transaction; chain/withdrawal-sender.ts pays it out from the hot wallet, or fails and refunds it.
 * The client's request id makes a retried request answer the first one instead of paying twice.
 */
const RECENT = 10;

type Row = Pick<WithdrawalsTable, 'request_id' | 'address' | 'amount' | 'fee' | 'status' | 'tx_hash'> & { id: string; created_at: Date };

const record = (r: Row): WithdrawalRecord => ({
  id: String(r.id),
  requestId: r.request_id,
  address: r.address,
  amount: money(r.amount).toFixed(),
  fee: money(r.fee).toFixed(),
  received: money(r.amount).minus(r.fee).toFixed(),
  status: r.status,
  txHash: r.tx_hash,
  createdAt: r.created_at.toISOString(),
});

export async function withdrawInfo(db: Db, chain: ChainSide | undefined, userId: string, lockMs: number, now = new Date()): Promise<WithdrawInfo> {
  const [user, bal] = await Promise.all([userById(db, userId), balances(db, userId)]);
  const locked = lockedUntil(user, lockMs, now);
  const base: WithdrawInfo = {
    enabled: false,
    network: 'BSC',
    token: '',
    minimum: '0',
    fee: '0',
    balance: bal.usdt,
    paymentPasswordSet: user.payment_hash !== null,
    recent: [],
    lockedUntil: locked,
    lockMs,
    twoFactor: user.totp_sealed !== null,
  };
  const sender = chain ? await chain.sender() : undefined;
  if (!chain || !sender) return base;
  const facts = await chain.facts();
  const rows = await db.selectFrom('withdrawals').selectAll().where('user_id', '=', userId).orderBy('id', 'desc').limit(RECENT).execute();
  return { ...base, enabled: true, token: facts.usdt, minimum: facts.withdrawMin, fee: facts.withdrawFee, recent: rows.map(record) };
}

export interface WithdrawInput {
  network?: string | undefined;
  address: string;
  amount: string;
  payPassword: string;
  requestId: string;
  otp?: string | undefined;
}

export interface WithdrawDeps {
  db: Db;
  limiter: LoginLimiter;
  chain: ChainSide | undefined;
  box: SecretBox;
  /** How long withdrawals wait after a security change, and a new address before it is paid. */
  lockMs: number;
}

/** The fingerprint of a withdrawal request: the network, the checksummed address and the amount as an exact decimal. */
const withdrawHash = (address: string, amount: Decimal.Value) => requestHash('userWithdraw', { network: 'BSC', address, amount: new Decimal(amount).toFixed() });

/** A recorded withdrawal asked for again under its request id: the same request answers it, another is refused. */
function replayOf(row: Row & { request_hash: string | null }, hash: string): WithdrawalRecord {
  // Rows made before the hash was kept: their fingerprint is made from what they recorded.
  const recorded = row.request_hash ?? withdrawHash(row.address, money(row.amount).toFixed());
  if (recorded !== hash) throw fail('RequestIdReused');
  return record(row);
}

/**
 * Asks for a withdrawal: the payment password, the second factor when 2FA is on, no recent security
 * change, an address the trader first named at least the lock's time ago; then
 * the debit and the record in one transaction, and a security notice. The client's request id makes a
 * retry answer the first request's record instead of paying twice, but only after the same checks of
 * the payment password and the second factor, and only for the same request (RequestIdReused else).
 */
export async function withdraw(deps: WithdrawDeps, session: SessionRef, input: WithdrawInput): Promise<WithdrawalRecord> {
  const { db, chain } = deps;
  const { userId } = session;
  checkNetwork(input.network);
  const sender = chain ? await chain.sender() : undefined;
  if (!chain || !sender) throw fail('ChainUnavailable');
  const facts = await chain.facts();
  if (!isAddress(input.address, { strict: true }) || /^0x0{40}$/i.test(input.address)) throw fail('InvalidAddress');
  const address = getAddress(input.address);
  const amount = new Decimal(input.amount);
  if (amount.lte(0) || amount.decimalPlaces() > 8) throw fail('InvalidAmount');
  const hash = withdrawHash(address, amount);
  await checkPaymentPassword(deps, session, input.payPassword);
  await requireSecondFactor(deps, session, input.otp);
  const earlier = await db.selectFrom('withdrawals').selectAll().where('user_id', '=', userId).where('request_id', '=', input.requestId).executeTakeFirst();
  if (earlier) return replayOf(earlier, hash);
  if ([facts.deposit, facts.usdt, facts.hotWallet].some((a) => a.toLowerCase() === address.toLowerCase())) throw fail('InvalidAddress');
  const fee = new Decimal(facts.withdrawFee);
  const minimum = Decimal.max(facts.withdrawMin, fee.plus('0.00000001'));
  if (amount.lt(minimum)) throw fail('AmountBelowMinimum', { values: { minimum: minimum.toFixed() } });
  await checkWithdrawLock(db, userId, deps.lockMs);
  await checkWithdrawAddress(db, userId, address, deps.lockMs);
  const row = await inTransaction(db, async (tx) => {
    const inserted = await tx
      .insertInto('withdrawals')
      .values({ user_id: userId, request_id: input.requestId, request_hash: hash, address, amount: amount.toFixed(), fee: fee.toFixed(), status: 'pending' })
      .onConflict((c) => c.columns(['user_id', 'request_id']).doNothing())
      .returningAll()
      .executeTakeFirst();
    if (inserted) {
      await post(tx, { userId, asset: 'usdt', amount: amount.neg(), reason: 'withdraw', detail: { withdrawal: String(inserted.id), address } });
      await later(tx, userId, { kind: 'withdrawal', withdrawal: String(inserted.id), status: 'pending' });
    }
    return inserted;
  });
  if (!row) {
    // The same request id at the same moment, recorded by the other: its record, if it is the same request.
    const other = await db.selectFrom('withdrawals').selectAll().where('user_id', '=', userId).where('request_id', '=', input.requestId).executeTakeFirst();
    if (!other) throw fail('WithdrawalInProgress');
    return replayOf(other, hash);
  }
  await securityNotice(db, userId, 'security_withdraw', { amount: amount.toFixed(), address });
  void sender.kick();
  return record(row);
}
