import { parseUnits, type Address } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../db/connect.ts';
import { balances } from '../ledger.ts';
import { dbKinds, openTestDb } from '../testing/test-support.ts';
import { depositAbi, tokenAbi } from '../../contract/chain-abi.ts';
import { startDevChain, type DevChain } from './dev-chain.ts';
import { DepositWatcher } from './watcher.ts';

const CONFIRMATIONS = 4;
let seq = 0;

/**
 * The deposit watcher against a real chain 56 (anvil) and both databases: credited once, only after the
 * confirmations, across restarts, concurrent watchers and a re-org within the confirmation depth.
 */
describe.each(dbKinds)('deposits on chain 56 (%s)', (kind) => {
  let chain: DevChain;
  let db: Db;
  let drop: () => Promise<void>;
  const watchers: DepositWatcher[] = [];
  const watcher = () => {
    const w = new DepositWatcher(db, chain.public, { usdt: chain.usdt, deposit: chain.deposit, confirmations: CONFIRMATIONS, startBlock: 1n, decimals: 18 });
    watchers.push(w);
    return w;
  };
  const newUser = async (address: string | null = null) => {
    const sn = String(20_000_000 + seq++);
    const row = await db
      .insertInto('users')
      .values({ sn, account: `chain${sn}`, password_hash: null, payment_hash: null, nickname: 'n', email: '', mobile: '', address, avatar: '', referrer_id: null })
      .returning('id')
      .executeTakeFirstOrThrow();
    return { id: String(row.id), sn };
  };
  /** A funded trader pays `amount` USDT into the deposit contract for UID `sn`; answers the block it landed in. */
  const deposit = async (sn: string, amount: string) => {
    const t = await chain.trader(amount);
    const value = parseUnits(amount, 18);
    await chain.public.waitForTransactionReceipt({ hash: await t.wallet.writeContract({ address: chain.usdt, abi: tokenAbi, functionName: 'approve', args: [chain.deposit, value] }) });
    const hash = await t.wallet.writeContract({ address: chain.deposit, abi: depositAbi, functionName: 'deposit', args: [value, BigInt(sn)] });
    const receipt = await chain.public.waitForTransactionReceipt({ hash });
    expect(receipt.status).toBe('success');
    return { hash, block: receipt.blockNumber, trader: t };
  };
  const usdt = async (userId: string) => (await balances(db, userId)).usdt;

  beforeAll(async () => {
    [chain, { db, drop }] = await Promise.all([startDevChain(), openTestDb(kind)]);
  });
  afterAll(async () => {
    await Promise.all(watchers.map((w) => w.stop()));
    await Promise.all([chain?.stop(), drop?.()]);
  });

  it('credits a deposit once, exactly when it is CONFIRMATIONS blocks deep', async () => {
    const u = await newUser();
    const w = watcher();
    const { hash, block } = await deposit(u.sn, '25.5');
    await w.catchUp();
    expect(await usdt(u.id)).toBe('0'); // 1 confirmation
    await chain.mine(CONFIRMATIONS - 2);
    await w.catchUp();
    expect(await usdt(u.id)).toBe('0'); // CONFIRMATIONS - 1
    await chain.mine(1);
    expect(await chain.public.getBlockNumber({ cacheTime: 0 })).toBe(block + BigInt(CONFIRMATIONS - 1));
    expect(await w.catchUp()).toBe(1);
    expect(await usdt(u.id)).toBe('25.5');
    await chain.mine(3);
    expect(await w.catchUp()).toBe(0);
    expect(await usdt(u.id)).toBe('25.5');
    const logs = await db.selectFrom('account_logs').selectAll().where('user_id', '=', u.id).where('reason', '=', 'deposit').execute();
    expect(logs).toHaveLength(1);
    expect(logs[0]!.detail).toMatchObject({ txHash: hash });
  });

  it('credits once across a restart in the middle and with two watchers at once', async () => {
    const u = await newUser();
    const first = watcher();
    await deposit(u.sn, '40');
    await chain.mine(1);
    await first.catchUp(); // reads up to the last confirmed block, not the deposit's
    await first.stop();
    await chain.mine(CONFIRMATIONS);
    // A restart: two new watchers (two server processes) race over the same blocks.
    const [a, b] = [watcher(), watcher()];
    const credited = await Promise.all([a.catchUp(), b.catchUp(), a.catchUp()]);
    expect(credited.reduce((s, n) => s + n, 0)).toBe(1);
    expect(await usdt(u.id)).toBe('40');
    // And from scratch: a cursor rewound to the start reads the same logs again and credits nothing.
    await db.updateTable('chain_cursors').set({ block: '0' }).execute();
    expect(await watcher().catchUp()).toBe(0);
    expect(await usdt(u.id)).toBe('40');
  });

  it('never credits a deposit that a re-org within the confirmation depth removed, and credits it when it lands again', async () => {
    const u = await newUser();
    const w = watcher();
    await w.catchUp();
    const funded = await chain.trader('30');
    const value = parseUnits('30', 18);
    await chain.public.waitForTransactionReceipt({ hash: await funded.wallet.writeContract({ address: chain.usdt, abi: tokenAbi, functionName: 'approve', args: [chain.deposit, value] }) });
    const snapshot = await chain.test.snapshot();
    const hash = await funded.wallet.writeContract({ address: chain.deposit, abi: depositAbi, functionName: 'deposit', args: [value, BigInt(u.sn)] });
    await chain.public.waitForTransactionReceipt({ hash });
    await chain.mine(CONFIRMATIONS - 2);
    await w.catchUp();
    await chain.test.revert({ id: snapshot }); // the blocks holding the deposit are gone
    await chain.mine(CONFIRMATIONS + 2);
    await w.catchUp();
    expect(await usdt(u.id)).toBe('0');
    expect(await db.selectFrom('deposits').select('id').where('tx_hash', '=', hash).execute()).toHaveLength(0);
    // The trader sends it again; it lands in a new block and is credited once.
    await chain.public.waitForTransactionReceipt({ hash: await funded.wallet.writeContract({ address: chain.deposit, abi: depositAbi, functionName: 'deposit', args: [value, BigInt(u.sn)] }) });
    await chain.mine(CONFIRMATIONS);
    expect(await w.catchUp()).toBe(1);
    expect(await usdt(u.id)).toBe('30');
  });

  it('credits a plain transfer from a bound wallet, and keeps an unknown one aside', async () => {
    const t = await chain.trader('12');
    const stranger = await chain.trader('7');
    const u = await newUser(t.address);
    const w = watcher();
    await w.catchUp();
    for (const [who, amount] of [
      [t, '12'],
      [stranger, '7'],
    ] as const) {
      const hash = await who.wallet.writeContract({ address: chain.usdt, abi: tokenAbi, functionName: 'transfer', args: [chain.deposit, parseUnits(amount, 18)] });
      await chain.public.waitForTransactionReceipt({ hash });
    }
    await chain.mine(CONFIRMATIONS);
    expect(await w.catchUp()).toBe(1);
    expect(await usdt(u.id)).toBe('12');
    const unmatched = await db
      .selectFrom('deposits')
      .selectAll()
      .where('from_address', '=', stranger.address as Address)
      .executeTakeFirstOrThrow();
    expect(unmatched).toMatchObject({ status: 'unmatched', user_id: null });
    expect(unmatched.amount && Number(unmatched.amount)).toBe(7);
  });

  it('following the chain, credits within one block of the confirmation depth', async () => {
    const u = await newUser();
    const w = watcher();
    await w.catchUp();
    w.start(50);
    const { block } = await deposit(u.sn, '15');
    for (let b = 1; b < CONFIRMATIONS; b++) await chain.mine(1);
    expect(await chain.public.getBlockNumber({ cacheTime: 0 })).toBe(block + BigInt(CONFIRMATIONS - 1));
    // No further block is mined: the credit must come from the block that reached the depth.
    const deadline = Date.now() + 3000;
    while ((await usdt(u.id)) !== '15' && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    expect(await usdt(u.id)).toBe('15');
    await w.stop();
  });
});
