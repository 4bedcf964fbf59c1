import Decimal from 'decimal.js';
import { formatUnits, parseUnits, type Address } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Code } from '../../contract/codes.ts';
import { depositAbi, tokenAbi } from '../../contract/chain-abi.ts';
import { openChain, type ChainSide } from '../chain/chain-side.ts';
import { startDevChain, type DevChain } from '../chain/dev-chain.ts';
import { readConfig } from '../config.ts';
import { post } from '../ledger.ts';
import { dbKinds, openTestApp, PASSWORD, type Answer, type DataAt, type TestApp, registerPayload } from '../testing/test-support.ts';

const CONFIRMATIONS = 3;
const PAY = '246810';

/**
 * Deposits, withdrawals and changes through the API, against a real chain 56 (anvil)
 * with the project's contracts, on both databases. Each test has its own trader and money (a real
 * deposit on the chain, or an adjustment through the ledger): any one runs alone and in any order.
 */
describe.each(dbKinds)('money in and out (%s)', (kind) => {
  let chain: DevChain;
  let side: ChainSide;
  let t: TestApp;
  let bare: TestApp;
  let auth: Record<string, string>;
  let user: { id: string; sn: string };
  const call = <M extends 'GET' | 'POST', U extends string>(method: M, url: U, payload?: object, app = t) =>
    app.app.inject({ method, url, ...(payload ? { payload } : {}), headers: { ...auth, lang: 'en' } }).then((r) => r.json() as Answer<DataAt<M, U>>);
  const usdt = async () => (await call('GET', '/api/user/account')).data.usdt as string;
  /** A new trader, the one `call` and `usdt` act as from now on. */
  const newTrader = async () => {
    const r = await t.app.inject({ method: 'POST', url: '/api/login/register', payload: await registerPayload(t.app) });
    auth = { authorization: `Bearer ${r.json().data.token}` };
    const sn = r.json().data.sn as string;
    user = { sn, id: String((await t.db.selectFrom('users').select('id').where('sn', '=', sn).executeTakeFirstOrThrow()).id) };
  };
  /** A trader's wallet pays `amount` USDT into the deposit contract for `sn`; answers the transaction. */
  const pay = async (sn: string, amount: string) => {
    const trader = await chain.trader(amount);
    const value = parseUnits(amount, 18);
    await chain.public.waitForTransactionReceipt({ hash: await trader.wallet.writeContract({ address: chain.usdt, abi: tokenAbi, functionName: 'approve', args: [chain.deposit, value] }) });
    const hash = await trader.wallet.writeContract({ address: chain.deposit, abi: depositAbi, functionName: 'deposit', args: [value, BigInt(sn)] });
    await chain.public.waitForTransactionReceipt({ hash });
    return hash;
  };
  /** Funds the current trader with a real deposit of `amount` USDT, confirmed and credited. */
  const deposit = async (amount: string) => {
    await pay(user.sn, amount);
    await chain.mine(CONFIRMATIONS - 1);
    await (await side.watcher()).catchUp();
    expect(await usdt()).toBe(amount);
  };
  const setPay = async () => expect((await call('POST', '/api/user/password', { type: 'payment', old: PASSWORD, password: PAY, confirm: PAY })).code).toBe(1);
  const tokenBalance = async (address: Address) => formatUnits(await chain.public.readContract({ address: chain.usdt, abi: tokenAbi, functionName: 'balanceOf', args: [address] }), 18);

  beforeAll(async () => {
    chain = await startDevChain();
    const cfg = { ...readConfig({}).chain, rpcUrl: chain.url, usdt: chain.usdt, deposit: chain.deposit, hotWalletKey: chain.hotWalletKey, confirmations: CONFIRMATIONS, pollMs: 50, startBlock: 1 };
    t = await openTestApp(kind, { chain: (db) => (side = openChain(db, cfg)!) });
  });
  afterAll(async () => {
    await side?.stop();
    await t?.close();
    await bare?.close();
    await chain?.stop();
  });

  it('says when the server has no chain, in the envelope and in English', async () => {
    bare = await openTestApp(kind);
    const r = await bare.app.inject({ method: 'POST', url: '/api/login/register', payload: await registerPayload(bare.app) });
    const headers = { authorization: `Bearer ${r.json().data.token}`, lang: 'en' };
    const info = (await bare.app.inject({ url: '/api/user/depositInfo', headers })).json();
    expect(info).toMatchObject({ code: 1, data: { enabled: false, memo: r.json().data.sn } });
    const address = (await bare.app.inject({ url: '/api/user/depositAddress?network=BSC', headers })).json();
    expect(address).toMatchObject({ code: Code.ChainUnavailable, msg: 'Deposits and withdrawals on chain are not available on this server' });
  });

  it('tells where and how to deposit', async () => {
    await newTrader();
    const info = await call('GET', '/api/user/depositInfo');
    expect(info.data).toMatchObject({
      enabled: true,
      network: 'BSC',
      chainId: 56,
      token: chain.usdt,
      decimals: 18,
      contract: chain.deposit,
      minimum: '10',
      confirmations: CONFIRMATIONS,
      memo: user.sn,
      recent: [],
    });
    expect((await call('GET', '/api/user/depositAddress?network=bep20')).data).toEqual({ network: 'BSC', address: chain.deposit, memo: user.sn, token: chain.usdt });
    expect(await call('GET', '/api/user/depositAddress?network=TRC20')).toMatchObject({ code: Code.NetworkUnsupported, msg: 'This network is not supported, please use BSC (BEP20)' });
  });

  it('records a reported deposit, then the watcher credits it once after the confirmations', async () => {
    await newTrader();
    expect(await call('POST', '/api/user/deposit', { txHash: '0x1234' })).toMatchObject({ code: Code.InvalidTxHash, msg: 'Invalid transaction hash' });
    const hash = await pay(user.sn, '50');
    expect((await call('POST', '/api/user/deposit', { network: 'BSC', txHash: hash })).data).toEqual({ txHash: hash, status: 'submitted', confirmations: 1, required: CONFIRMATIONS });
    const watcher = await side.watcher();
    await watcher.catchUp();
    expect(await usdt()).toBe('0');
    expect((await call('GET', '/api/user/depositInfo')).data.recent).toMatchObject([{ txHash: hash, status: 'submitted', amount: null }]);
    await chain.mine(CONFIRMATIONS - 1);
    expect(await watcher.catchUp()).toBe(1);
    expect(await usdt()).toBe('50');
    expect((await call('GET', '/api/user/depositInfo')).data.recent).toMatchObject([{ txHash: hash, status: 'credited', amount: '50' }]);
    expect((await call('POST', '/api/user/deposit', { txHash: hash })).data).toMatchObject({ status: 'credited', confirmations: CONFIRMATIONS });
    expect(await watcher.catchUp()).toBe(0);
    expect(await usdt()).toBe('50');
  });

  it('refuses withdrawals without or with a wrong payment password, to a bad address, under the minimum, beyond the balance', async () => {
    await newTrader();
    await deposit('50');
    const to = (await chain.trader()).address;
    const ask = (body: object) => call('POST', '/api/user/withdraw', { address: to, amount: '20', payPassword: PAY, requestId: `req-${Math.random().toString(36).slice(2, 12)}`, ...body });
    expect(await ask({})).toMatchObject({ code: Code.PaymentPasswordNotSet });
    await setPay();
    expect(await ask({ payPassword: '111111' })).toMatchObject({ code: Code.IncorrectPassword });
    expect(await ask({ address: '0x12' })).toMatchObject({ code: Code.InvalidAddress, msg: 'Invalid address' });
    // A mixed-case address with a broken checksum is a typo, not an address.
    const broken = to.slice(0, 2) + [...to.slice(2)].map((c) => (/[a-f]/.test(c) ? c.toUpperCase() : /[A-F]/.test(c) ? c.toLowerCase() : c)).join('');
    if (broken !== to && /[a-fA-F]/.test(to.slice(2))) expect(await ask({ address: broken })).toMatchObject({ code: Code.InvalidAddress });
    expect(await ask({ address: chain.deposit })).toMatchObject({ code: Code.InvalidAddress });
    expect(await ask({ amount: '9.99' })).toMatchObject({ code: Code.AmountBelowMinimum, msg: 'The amount is below the minimum of 10' });
    expect(await ask({ amount: '-5' })).toMatchObject({ code: Code.InvalidAmount });
    expect(await ask({ amount: '50.00000001' })).toMatchObject({ code: Code.InsufficientFunds });
    expect(await usdt()).toBe('50');
    expect(await t.db.selectFrom('withdrawals').select('id').where('user_id', '=', user.id).execute()).toHaveLength(0);
  });

  it('pays a withdrawal out once from the hot wallet, also when the request is retried and the sender restarts', async () => {
    await newTrader();
    await deposit('50');
    await setPay();
    const to = (await chain.trader()).address;
    const body = { address: to, amount: '20', payPassword: PAY, requestId: 'withdraw-once-1' };
    await chain.test.setAutomine(false); // keep it in the mempool: "sent", not mined
    const first = await call('POST', '/api/user/withdraw', body);
    expect(first.data).toMatchObject({ status: 'pending', amount: '20', fee: '1', received: '19', address: to });
    expect(await usdt()).toBe('30');
    const again = await call('POST', '/api/user/withdraw', body); // the client retries: same answer, no second debit
    expect(again.data.id).toBe(first.data.id);
    expect(await usdt()).toBe('30');
    const sender = (await side.sender())!;
    await sender.kick();
    await sender.idle();
    const sent = await t.db.selectFrom('withdrawals').selectAll().where('id', '=', first.data.id).executeTakeFirstOrThrow();
    expect(sent.status).toBe('sent');
    // A crash after signing: the row says "signed"; a new sender broadcasts the same bytes (same nonce, same hash).
    await t.db.updateTable('withdrawals').set({ status: 'signed' }).where('id', '=', first.data.id).execute();
    const restarted = openChain(t.db, { ...readConfig({}).chain, rpcUrl: chain.url, usdt: chain.usdt, deposit: chain.deposit, hotWalletKey: chain.hotWalletKey, confirmations: CONFIRMATIONS })!;
    await (await restarted.sender())!.kick();
    await chain.test.setAutomine(true);
    await chain.mine(1);
    await (await restarted.sender())!.kick();
    const done = await t.db.selectFrom('withdrawals').selectAll().where('id', '=', first.data.id).executeTakeFirstOrThrow();
    expect(done).toMatchObject({ status: 'confirmed', tx_hash: sent.tx_hash, nonce: sent.nonce });
    expect(await tokenBalance(to)).toBe('19');
    const info = await call('GET', '/api/user/withdrawInfo');
    expect(info.data).toMatchObject({ enabled: true, minimum: '10', fee: '1', balance: '30', paymentPasswordSet: true, recent: [{ id: first.data.id, status: 'confirmed', txHash: sent.tx_hash }] });
  });

  it('fails and refunds a withdrawal the hot wallet cannot pay, with a warning', async () => {
    await newTrader();
    await setPay();
    // More than the hot wallet holds (100,000 USDT), credited through the ledger as support would.
    await t.db.transaction().execute((tx) => post(tx, { userId: user.id, asset: 'usdt', amount: new Decimal('200000'), reason: 'adjust' }));
    const to = (await chain.trader()).address;
    const r = await call('POST', '/api/user/withdraw', { address: to, amount: '150000', payPassword: PAY, requestId: 'too-big-for-hot' });
    expect(r.data.status).toBe('pending');
    // Taken at once (the sender, kicked by the request, may already have failed and refunded it: its log says so).
    const debit = (await call('GET', '/api/user/accountLogs?type=usdt')).data.list.find((l) => l.reason === 'withdraw');
    expect(debit).toMatchObject({ amount: '-150000', balance: '50000' });
    const sender = (await side.sender())!;
    await sender.kick();
    await sender.idle();
    expect(await usdt()).toBe('200000');
    expect((await call('GET', '/api/user/withdrawInfo')).data.recent[0]).toMatchObject({ id: r.data.id, status: 'failed' });
    expect(await tokenBalance(to)).toBe('0');
    const notices = await call('GET', '/api/notice/list?kind=warning');
    expect(notices.data.list[0]).toMatchObject({ code: 'withdrawal_failed', detail: { withdrawal: r.data.id, amount: '150000' } });
    const logs = (await call('GET', '/api/user/accountLogs?type=usdt')).data.list;
    expect(logs[0]).toMatchObject({ reason: 'refund', amount: '150000' });
  });

  it('changes between the balances at the configured rates, with the payment password', async () => {
    await newTrader();
    await setPay();
    await t.db.transaction().execute((tx) => post(tx, { userId: user.id, asset: 'usdt', amount: new Decimal('50'), reason: 'adjust' }));
    const info = await call('GET', '/api/user/changeInfo');
    expect(info.data.pairs).toEqual([
      { from: 'usdt', to: 'fuel', rate: '1' },
      { from: 'points', to: 'fuel', rate: '0.01' },
      { from: 'rewards', to: 'usdt', rate: '1' },
    ]);
    const change = (body: object) => call('POST', '/api/user/change', { from: 'usdt', to: 'fuel', amount: '12.5', payPassword: PAY, ...body });
    expect(await change({ from: 'fuel', to: 'usdt' })).toMatchObject({ code: Code.ChangeUnsupported });
    expect(await change({ payPassword: '000000' })).toMatchObject({ code: Code.IncorrectPassword });
    expect(await change({ amount: '0' })).toMatchObject({ code: Code.InvalidAmount });
    expect(await change({ from: 'points', amount: '1' })).toMatchObject({ code: Code.InsufficientFunds });
    const ok = await change({});
    expect(ok.data).toMatchObject({ amount: '12.5', received: '12.5', balances: { usdt: '37.5', fuel: '112.5' } });
    const logs = (await call('GET', '/api/user/accountLogs')).data.list;
    expect(logs.slice(0, 2)).toMatchObject([
      { asset: 'fuel', amount: '12.5', reason: 'change' },
      { asset: 'usdt', amount: '-12.5', reason: 'change' },
    ]);
  });
});
