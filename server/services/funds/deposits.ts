import { TransactionReceiptNotFoundError, type Hex } from 'viem';
import type { DepositAddress, DepositInfo, DepositRecord, DepositReport } from '../../../contract/funds.ts';
import type { ChainSide } from '../../chain/chain-side.ts';
import type { Db } from '../../db/connect.ts';
import { money } from '../../../strategy/money.ts';
import { fail } from '../../errors.ts';
import { userById } from '../users.ts';
import { checkNetwork } from './network.ts';

/** Deposits on chain 56: where and how to pay, and the hashes traders report. */
const RECENT = 10;

function chainOf(chain: ChainSide | undefined): ChainSide {
  if (!chain) throw fail('ChainUnavailable');
  return chain;
}

export async function depositInfo(db: Db, chain: ChainSide | undefined, userId: string, faucet = false): Promise<DepositInfo> {
  const user = await userById(db, userId);
  const off: DepositInfo = {
    enabled: false,
    network: 'BSC',
    chainId: 56,
    token: '',
    decimals: 18,
    contract: '',
    minimum: '0',
    confirmations: 0,
    memo: user.sn,
    wallet: user.address,
    faucet: false,
    recent: [],
  };
  if (!chain) return off;
  const facts = await chain.facts();
  const rows = await db.selectFrom('deposits').select(['tx_hash', 'amount', 'status', 'created_at']).where('user_id', '=', userId).orderBy('id', 'desc').limit(RECENT).execute();
  const recent: DepositRecord[] = rows.map((r) => ({
    txHash: r.tx_hash,
    amount: r.amount === null ? null : money(r.amount).toFixed(),
    status: r.status === 'credited' ? 'credited' : 'submitted',
    createdAt: r.created_at.toISOString(),
  }));
  return {
    ...off,
    enabled: true,
    chainId: facts.chainId,
    token: facts.usdt,
    decimals: facts.decimals,
    contract: facts.deposit,
    minimum: facts.minimum,
    confirmations: facts.confirmations,
    faucet,
    recent,
  };
}

export async function depositAddress(db: Db, chain: ChainSide | undefined, userId: string, network: string): Promise<DepositAddress> {
  checkNetwork(network);
  const facts = await chainOf(chain).facts();
  const user = await userById(db, userId);
  return { network: 'BSC', address: facts.deposit, memo: user.sn, token: facts.usdt };
}

/**
 * The trader reports the hash of a deposit they sent: it is listed as submitted until the watcher
 * credits it (only the watcher credits, from the chain's own logs). Answers the confirmations so far.
 */
export async function reportDeposit(db: Db, chain: ChainSide | undefined, userId: string, input: { network?: string | undefined; txHash: string }): Promise<DepositReport> {
  checkNetwork(input.network);
  const side = chainOf(chain);
  const facts = await side.facts();
  const txHash = input.txHash.toLowerCase();
  const credited = await db.selectFrom('deposits').select(['user_id', 'status']).where('tx_hash', '=', txHash).where('log_index', '>=', 0).execute();
  if (credited.some((r) => r.user_id !== null && String(r.user_id) !== String(userId))) throw fail('Duplicate');
  const receipt = await side.client.getTransactionReceipt({ hash: txHash as Hex }).catch((e: unknown) => {
    if (e instanceof TransactionReceiptNotFoundError) return null; // not mined (or not seen) yet
    throw fail('ThirdPartyError');
  });
  if (receipt && receipt.status !== 'success') throw fail('DepositFailed');
  const confirmations = receipt ? Number((await side.client.getBlockNumber({ cacheTime: 0 })) - receipt.blockNumber + 1n) : 0;
  if (credited.some((r) => r.status === 'credited')) return { txHash, status: 'credited', confirmations, required: facts.confirmations };
  const known = await db.selectFrom('deposits').select('id').where('tx_hash', '=', txHash).where('log_index', '=', -1).executeTakeFirst();
  if (!known)
    await db
      .insertInto('deposits')
      .values({ user_id: userId, tx_hash: txHash, log_index: -1, status: 'submitted' })
      .onConflict((c) => c.columns(['tx_hash', 'log_index']).doNothing())
      .execute();
  return { txHash, status: 'submitted', confirmations, required: facts.confirmations };
}
