import Decimal from 'decimal.js';
import type { AccountBalances, ChangeInfo, ChangePair } from '../../../contract/funds.ts';
import type { Db } from '../../db/connect.ts';
import { fail } from '../../errors.ts';
import { balances, lockBalance, post, type Asset } from '../../ledger.ts';
import type { LoginLimiter } from '../login-limiter.ts';
import { checkPaymentPassword } from '../password-change.ts';
import type { SessionRef } from '../security/session-tries.ts';
import { userById } from '../users.ts';
import { inTransaction } from '../../events/outbox.ts';

/**
 * Changes between the balances: USDT to fuel, points to fuel, rewards to USDT, at the
 * rates of CHANGE_RATES. Both sides move in one transaction; what arrives is rounded down to 8 places
 * (never more than the rate gives).
 */
export function pairsOf(rates: Record<string, string>): ChangePair[] {
  return Object.entries(rates).map(([key, rate]) => {
    const [from, to] = key.split(':') as [Asset, Asset];
    return { from, to, rate };
  });
}

export async function changeInfo(db: Db, rates: Record<string, string>, userId: string): Promise<ChangeInfo> {
  const [user, bal] = await Promise.all([userById(db, userId), balances(db, userId)]);
  return { balances: bal, pairs: pairsOf(rates), paymentPasswordSet: user.payment_hash !== null };
}

export async function change(
  deps: { db: Db; limiter: LoginLimiter; rates: Record<string, string> },
  session: SessionRef,
  input: { from: Asset; to: Asset; amount: string; payPassword: string },
): Promise<{ from: Asset; to: Asset; amount: string; received: string; balances: AccountBalances }> {
  const rate = deps.rates[`${input.from}:${input.to}`];
  if (!rate) throw fail('ChangeUnsupported');
  const amount = new Decimal(input.amount);
  if (amount.lte(0) || amount.decimalPlaces() > 8) throw fail('InvalidAmount');
  const received = amount.times(rate).toDecimalPlaces(8, Decimal.ROUND_DOWN);
  if (received.lte(0)) throw fail('InvalidAmount');
  const { userId } = session;
  await checkPaymentPassword(deps, session, input.payPassword);
  await inTransaction(deps.db, async (tx) => {
    // Both balances locked in one order (by name), whatever the direction: usdt->points and points->usdt
    // of one trader at the same moment would otherwise each hold one row and wait for the other's.
    for (const asset of [input.from, input.to].sort()) await lockBalance(tx, userId, asset);
    const detail = { from: input.from, to: input.to, rate, amount: amount.toFixed(), received: received.toFixed() };
    await post(tx, { userId, asset: input.from, amount: amount.neg(), reason: 'change', detail });
    await post(tx, { userId, asset: input.to, amount: received, reason: 'change', detail });
  });
  return { from: input.from, to: input.to, amount: amount.toFixed(), received: received.toFixed(), balances: await balances(deps.db, userId) };
}
