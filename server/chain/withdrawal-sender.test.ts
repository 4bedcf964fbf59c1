import Decimal from 'decimal.js';
import { createWalletClient, formatUnits, http, type Address, type Hex, type PublicClient } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../db/connect.ts';
import { balances, post } from '../ledger.ts';
import { dbKinds, openTestDb } from '../testing/test-support.ts';
import { tokenAbi } from '../../contract/chain-abi.ts';
import { startDevChain, type DevChain } from './dev-chain.ts';
import { WithdrawalSender, type SenderDuty } from './withdrawal-sender.ts';

/** Blocks under the head at which a nonce used by another transaction counts as final. */
const DEPTH = 3;
let seq = 0;

/**
 * The withdrawal sender's nonces against a real chain 56 (anvil) and both databases: a
 * failed broadcast never lends its nonce to the next withdrawal, two server processes never sign two
 * withdrawals with one nonce, and a withdrawal whose nonce another transaction took is refunded, never
 * left `sent` for ever.
 */
describe.each(dbKinds)('withdrawal nonces on chain 56 (%s)', (kind) => {
  let chain: DevChain;
  let db: Db;
  let drop: () => Promise<void>;
  const senders: WithdrawalSender[] = [];
  const sender = (client: PublicClient = chain.public, duty?: SenderDuty) => {
    const s = new WithdrawalSender(db, client, { usdt: chain.usdt, decimals: 18, chain: chain.chain, hotWalletKey: chain.hotWalletKey, confirmations: DEPTH }, undefined, duty);
    senders.push(s);
    return s;
  };
  type Send = (args: Parameters<PublicClient['sendRawTransaction']>[0]) => Promise<Hex>;
  /** The chain's client with another broadcast: a node that refuses, or one slow to answer. */
  const withSend = (send: Send) => ({ ...chain.public, sendRawTransaction: send }) as PublicClient;
  /** Broadcasts throw while `down()` says so (a connection reset, a timeout). */
  const flaky = (down: () => boolean) => withSend((args) => (down() ? Promise.reject(new Error('fetch failed: connection reset')) : chain.public.sendRawTransaction(args)));
  /** A trader holding `usdt` on the platform. */
  const newUser = async (usdt: string) => {
    const sn = String(30_000_000 + seq++);
    const row = await db
      .insertInto('users')
      .values({ sn, account: `send${sn}`, password_hash: null, payment_hash: null, nickname: 'n', email: '', mobile: '', address: null, avatar: '', referrer_id: null })
      .returning('id')
      .executeTakeFirstOrThrow();
    const id = String(row.id);
    await db.transaction().execute((tx) => post(tx, { userId: id, asset: 'usdt', amount: new Decimal(usdt), reason: 'adjust' }));
    return id;
  };
  /** Asks for a withdrawal of `amount` (fee 1) to a new address, as the funds service does: debit and row in one transaction. */
  const ask = async (userId: string, amount: string) => {
    const to = (await chain.trader()).address;
    const id = await db.transaction().execute(async (tx) => {
      const row = await tx
        .insertInto('withdrawals')
        .values({ user_id: userId, request_id: `r${seq++}`, address: to, amount, fee: '1', status: 'pending' })
        .returning('id')
        .executeTakeFirstOrThrow();
      await post(tx, { userId, asset: 'usdt', amount: new Decimal(amount).neg(), reason: 'withdraw', detail: { withdrawal: String(row.id) } });
      return String(row.id);
    });
    return { id, to };
  };
  const row = (id: string) => db.selectFrom('withdrawals').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  const usdt = async (userId: string) => (await balances(db, userId)).usdt;
  const tokens = async (address: Address) => formatUnits(await chain.public.readContract({ address: chain.usdt, abi: tokenAbi, functionName: 'balanceOf', args: [address] }), 18);
  const hotWallet = () => privateKeyToAccount(chain.hotWalletKey).address;
  /** Runs the senders until no withdrawal is open (a block mined between runs), at most `runs` times. */
  const settle = async (list: WithdrawalSender[], runs = 8) => {
    for (let i = 0; i < runs; i++) {
      await Promise.all(list.map((s) => s.kick()));
      await Promise.all(list.map((s) => s.idle()));
      const open = await db.selectFrom('withdrawals').select('id').where('status', 'in', ['pending', 'signed', 'sent']).execute();
      if (open.length === 0) return;
      await chain.mine(1);
    }
  };
  /** The hot wallet spends `nonce` on something else (a wallet app, a second tool): a 0 BNB transfer to itself. */
  const spendElsewhere = async (nonce: number) => {
    const wallet = createWalletClient({ chain: chain.chain, transport: http(chain.url), account: privateKeyToAccount(chain.hotWalletKey) });
    return wallet.sendTransaction({ to: hotWallet(), value: 0n, nonce });
  };

  beforeAll(async () => {
    [chain, { db, drop }] = await Promise.all([startDevChain(), openTestDb(kind)]);
  });
  afterAll(async () => {
    await Promise.all(senders.map((s) => s.idle()));
    await Promise.all([chain?.stop(), drop?.()]);
  });

  it('after a failed broadcast signs the next withdrawal with the next nonce: both are paid, once each', async () => {
    const u = await newUser('100');
    const hotBefore = await tokens(hotWallet());
    const a = await ask(u, '20');
    const b = await ask(u, '30');
    let failures = 1; // the first broadcast fails, every later one goes through
    const s = sender(flaky(() => failures-- > 0));
    await s.kick();
    expect((await row(a.id)).status).toBe('signed'); // kept, to be broadcast again as the same bytes
    await settle([s]);
    const [ra, rb] = [await row(a.id), await row(b.id)];
    expect([ra.status, rb.status]).toEqual(['confirmed', 'confirmed']);
    expect(ra.nonce).not.toBe(rb.nonce);
    expect(await tokens(a.to)).toBe('19');
    expect(await tokens(b.to)).toBe('29');
    expect(new Decimal(hotBefore).minus(await tokens(hotWallet())).toFixed()).toBe('48');
    expect(await usdt(u)).toBe('50');
  });

  it('signs nothing on a process that does not hold the sending duty, or lost it while it signed', async () => {
    const u = await newUser('100');
    const w = await ask(u, '20');
    // Another process holds the duty: this one's kicks (a withdrawal asked through it) do nothing.
    await sender(chain.public, { held: () => false, fence: async () => undefined }).kick();
    expect((await row(w.id)).status).toBe('pending');
    // It held the duty when it began, and lost it before the signed row committed: nothing is stored.
    const lost = sender(chain.public, {
      held: () => true,
      fence: async () => {
        throw new Error('the chain duty moved to another process');
      },
    });
    await lost.kick();
    await lost.idle();
    expect(await row(w.id)).toMatchObject({ status: 'pending', raw_tx: null, nonce: null });
    // The holder sends it.
    await settle([sender(chain.public, { held: () => true, fence: async () => undefined })]);
    expect((await row(w.id)).status).toBe('confirmed');
    expect(await tokens(w.to)).toBe('19');
  });

  it('two senders on one database (two server processes) kicked at once never sign two withdrawals with one nonce', async () => {
    const u = await newUser('600');
    const asked = [];
    for (let i = 0; i < 6; i++) asked.push(await ask(u, '50'));
    // Process one's node refuses its broadcasts for a while; process two's node is slow to answer them.
    let down = true;
    const one = sender(flaky(() => down));
    const slow = withSend(async (args) => {
      await new Promise((r) => setTimeout(r, 200));
      return chain.public.sendRawTransaction(args);
    });
    const two = sender(slow);
    await Promise.all([one.kick(), two.kick()]);
    await Promise.all([one.idle(), two.idle()]);
    const signed = (await Promise.all(asked.map((w) => row(w.id)))).filter((r) => r.nonce !== null);
    expect(signed.length).toBeGreaterThan(1);
    expect(new Set(signed.map((r) => r.nonce)).size).toBe(signed.length);
    down = false;
    await settle([one, two]);
    const rows = await Promise.all(asked.map((w) => row(w.id)));
    expect(new Set(rows.map((r) => r.nonce)).size).toBe(6);
    expect(rows.map((r) => r.status)).toEqual(Array(6).fill('confirmed'));
    for (const w of asked) expect(await tokens(w.to)).toBe('49');
    expect(await usdt(u)).toBe('300');
    // And the database itself refuses a second withdrawal with a nonce this wallet already signed.
    const r0 = rows[0]!;
    const copy = {
      user_id: u,
      request_id: 'copy',
      address: r0.address,
      amount: '50',
      fee: '1',
      status: 'sent' as const,
      from_address: r0.from_address,
      nonce: r0.nonce,
      raw_tx: '0x00',
      tx_hash: '0x00',
    };
    await expect(db.insertInto('withdrawals').values(copy).execute()).rejects.toThrow(/withdrawals_nonce_uq/);
  });

  it('refunds a sent withdrawal whose nonce another transaction took, once that is DEPTH blocks deep', async () => {
    const u = await newUser('40');
    const w = await ask(u, '25');
    await chain.test.setAutomine(false);
    try {
      const s = sender();
      await s.kick();
      const sent = await row(w.id);
      expect(sent.status).toBe('sent');
      // The node forgets it (evicted from the pool), and the hot wallet spends the nonce on something else.
      await chain.test.dropTransaction({ hash: sent.tx_hash as Hex });
      const other = await spendElsewhere(Number(sent.nonce));
      await chain.mine(1);
      expect((await chain.public.getTransactionReceipt({ hash: other })).status).toBe('success');
      await s.kick();
      expect((await row(w.id)).status).toBe('sent'); // not deep enough yet: a re-org could still bring ours back
      await chain.mine(DEPTH);
      await s.kick();
      await s.kick();
    } finally {
      await chain.test.setAutomine(true);
    }
    expect(await row(w.id)).toMatchObject({ status: 'failed' });
    expect(await usdt(u)).toBe('40');
    expect(await tokens(w.to)).toBe('0');
    const refunds = await db.selectFrom('account_logs').selectAll().where('user_id', '=', u).where('reason', '=', 'refund').execute();
    expect(refunds.map((r) => new Decimal(r.amount).toFixed())).toEqual(['25']);
    const notice = await db.selectFrom('notices').selectAll().where('user_id', '=', u).executeTakeFirstOrThrow();
    expect(notice).toMatchObject({ code: 'withdrawal_failed', detail: { withdrawal: w.id, amount: '25' } });
  });

  it('refunds a signed withdrawal that could not be broadcast while the hot wallet spent its nonce elsewhere', async () => {
    const u = await newUser('40');
    const w = await ask(u, '15');
    let down = true;
    const s = sender(flaky(() => down));
    await s.kick();
    const signed = await row(w.id);
    expect(signed.status).toBe('signed');
    await spendElsewhere(Number(signed.nonce)); // mined at once (automine)
    await chain.mine(DEPTH);
    down = false;
    await settle([s]);
    expect(await row(w.id)).toMatchObject({ status: 'failed' });
    expect(await usdt(u)).toBe('40');
    expect(await tokens(w.to)).toBe('0');
    // And the next withdrawal is signed past the nonce used elsewhere, and paid.
    const next = await ask(u, '10');
    await settle([s]);
    expect(await row(next.id)).toMatchObject({ status: 'confirmed' });
    expect(Number((await row(next.id)).nonce)).toBeGreaterThan(Number(signed.nonce));
    expect(await tokens(next.to)).toBe('9');
    expect(await usdt(u)).toBe('30');
  });
});
