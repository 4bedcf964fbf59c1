import { Secret, TOTP } from 'otpauth';
import { parseUnits } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { depositAbi, tokenAbi } from '../../contract/chain-abi.ts';
import { calls, type AnswerOf, type CallName } from '../../contract/calls.ts';
import { openChain, type ChainSide } from '../chain/chain-side.ts';
import { startDevChain, type DevChain } from '../chain/dev-chain.ts';
import { readConfig } from '../config.ts';
import { stopSearchWorker } from '../engine/ai/search-pool.ts';
import { ScriptedMarket } from '../testing/scripted.ts';
import { newAccount, openTestApp, PASSWORD, registerPayload, type TestApp, testDcaParams } from '../testing/test-support.ts';
import { solve } from '../security/challenge.ts';
import { createTrading, type Trading } from '../trading.ts';
import { buildOpenApi } from './openapi.ts';
import { docValidator } from './openapi-validate.ts';

type Answer = { code: number; msg: string; data: unknown };
type Input = { query?: Record<string, string>; body?: unknown; params?: Record<string, string> };
type Headers = Record<string, string>;

const PAY = '246810';
const martin = { investment: '1000', firstOrder: '100', multiplier: '2', maxPositions: 3, addTrigger: '2', takeProfit: '1', stopLoss: '', repeat: true };
const grid = { investment: '1000', lower: '45000', upper: '55000', grids: 4, spacing: 'arithmetic', stopLoss: '', takeProfit: '' };

/**
 * Every call of contract/calls.ts, on the real app (PGlite, the engine on a scripted market, a local
 * chain 56), answers data that matches its answer schema in contract/calls.ts and the published OpenAPI
 * document. The state is built so lists have items: an item with a missing or mistyped field fails.
 */
describe('every answer matches its schema', () => {
  let t: TestApp;
  let trading: Trading;
  let chain: DevChain;
  let side: ChainSide;
  const market = new ScriptedMarket();
  const doc = docValidator(buildOpenApi());
  const seen = new Set<CallName>();
  /** The trader most calls are made as; `inviter` invited them, `top` invited `inviter`. */
  let me: Headers;
  let meSn = '';
  let top: Headers;

  /** Sends one call by its name, the path and method from the call table. */
  const send = async (name: CallName, input: Input = {}, headers: Headers = me): Promise<Answer> => {
    const spec = calls[name];
    const path = spec.path.replace(/:(\w+)/g, (_, key: string) => encodeURIComponent(input.params?.[key] ?? ''));
    const query = input.query ? `?${new URLSearchParams(input.query)}` : '';
    const r = await t.app.inject({ method: spec.method, url: `/api${path}${query}`, ...(input.body !== undefined ? { payload: input.body as object } : {}), headers: { lang: 'en', ...headers } });
    expect(r.statusCode, `${name}: HTTP ${r.statusCode}`).toBe(200);
    return r.json() as Answer;
  };
  /** Sends one call, expects success, and checks its data against the zod schema and the document. */
  const ok = async <N extends CallName>(name: N, input: Input = {}, headers: Headers = me): Promise<AnswerOf<N>> => {
    const r = await send(name, input, headers);
    expect(r.code, `${name}: ${r.msg}`).toBe(1);
    const parsed = calls[name].answer.safeParse(r.data);
    expect(parsed.success ? [] : parsed.error.issues, `${name} against its answer in contract/calls.ts`).toEqual([]);
    const byDoc = doc.answer(name);
    expect(byDoc(r) ? [] : byDoc.errors, `${name} against the OpenAPI document`).toEqual([]);
    seen.add(name);
    return r.data as AnswerOf<N>;
  };
  const bearer = (token: string): Headers => ({ authorization: `Bearer ${token}` });
  const step = async (symbol: string, price: string) => {
    market.set(symbol, price);
    for (let i = 0; i < 3; i++) {
      await trading.engine.tick();
      await trading.engine.idle();
    }
  };
  const wallet = () => privateKeyToAccount(generatePrivateKey());
  const signed = async (w: ReturnType<typeof wallet>, headers: Headers = {}) => {
    const nonce = await ok('loginNonce', { query: { address: w.address } }, headers);
    return { address: w.address, signature: await w.signMessage({ message: nonce.message }) };
  };

  beforeAll(async () => {
    chain = await startDevChain();
    const cfg = { ...readConfig({}).chain, rpcUrl: chain.url, usdt: chain.usdt, deposit: chain.deposit, hotWalletKey: chain.hotWalletKey, confirmations: 1, pollMs: 50, startBlock: 1 };
    t = await openTestApp('pglite', {
      trading: (db) => (trading = createTrading({ db, feed: market })),
      chain: (db) => (side = openChain(db, cfg)!),
      faucet: chain.faucet,
    });
    market.set('BTC/USDT', '50000');
    market.set('ETH/USDT', '3000');
  });
  afterAll(async () => {
    await trading?.engine.stop();
    await side?.stop();
    await stopSearchWorker();
    await t?.close();
    await chain?.stop();
  });

  it('answers the sign-in calls: challenge, register, login, wallet nonce and verify, bind, logout', async () => {
    // Registration needs a solved proof-of-work challenge.
    const challenge = async () => solve(await ok('loginChallenge', {}, {}));
    const a = await ok('loginRegister', { body: { terminal: 1, account: newAccount(), password: PASSWORD, confirm: PASSWORD, challenge: await challenge() } }, {});
    top = bearer(a.token);
    const b = await ok('loginRegister', { body: { terminal: 2, account: newAccount(), password: PASSWORD, confirm: PASSWORD, referrer: a.sn, agreement: true, challenge: await challenge() } }, {});
    const account = newAccount();
    const c = await ok('loginRegister', { body: { terminal: 1, account, password: PASSWORD, confirm: PASSWORD, referrer: b.sn, challenge: await challenge() } }, {});
    expect(c.referral).toBe(b.sn);
    me = bearer(c.token);
    meSn = c.sn;
    const again = await ok('loginAccount', { body: { terminal: 3, account, password: PASSWORD } }, {});
    expect(again.sn).toBe(c.sn);
    await ok('loginLogout', {}, bearer(again.token));
    expect((await send('authProfile', {}, bearer(again.token))).code).not.toBe(1);

    const w = wallet();
    const verified = await ok('loginVerify', { body: { ...(await signed(w)), terminal: 4, referrer: a.sn } }, {});
    expect(verified.address).toBe(w.address);
    const bound = await ok('userBind', { body: await signed(wallet()) });
    expect(bound.sn).toBe(c.sn);
    expect(bound.address).toMatch(/^0x[0-9a-fA-F]{40}$/);
  });

  it('answers the profile calls', async () => {
    await ok('authProfile');
    const index = await ok('userIndex');
    expect(index.profile.sn).toBe(meSn);
    expect((await ok('userSetInfo', { body: { field: 'nickname', value: 'Answers' } })).nickname).toBe('Answers');
    await ok('userSetInfo', { body: { field: 'email', value: 'answers@example.com' } });
    await ok('userPassword', { body: { type: 'payment', old: PASSWORD, password: PAY, confirm: PAY } });
    expect((await ok('authProfile')).paymentPasswordSet).toBe(true);
  });

  it('answers the market calls', async () => {
    const exchanges = await ok('marketExchanges');
    expect(exchanges.exchanges.some((e) => e.simulatedOf)).toBe(true);
    expect((await ok('marketSymbols')).length).toBeGreaterThan(1);
    const [one] = await ok('marketSymbols', { query: { symbol: 'BTC/USDT', latest: '1', history: '1', timeframe: '1h', indicator: 'rsi14' } });
    expect(one).toMatchObject({ spark: expect.any(Array), history: expect.any(Array), indicator: { name: 'rsi14' } });
    await ok('marketPrice', { query: { symbols: 'BTC/USDT,ETH/USDT' } });
    expect((await ok('marketBotTypes')).length).toBeGreaterThan(0);
    expect((await ok('marketTypeBots', { query: { type_id: '1', page: '1', page_size: '5' } })).list).toHaveLength(5);
    expect((await ok('indexBanners')).length).toBeGreaterThan(0);
    await ok('marketFutures', { query: { exchange: 'paper' } });
  });

  it('answers the exchange key calls', async () => {
    const first = await ok('exchangesBind', { body: { exchangeId: 1, apiKey: 'paperkey01', secretKey: 'papersecret01' } });
    await ok('exchangesUnbind', { params: { id: first.id } });
    await ok('exchangesBind', { body: { exchangeId: '1', apiKey: 'paperkey02', secretKey: 'papersecret02' } });
    expect(await ok('userApi', { query: { exchange: 'paper' } })).toHaveLength(1);
    expect(await ok('userApiPost', { body: { exchange: 'paper' } })).toHaveLength(1);
    expect((await ok('userAsset', { query: { exchange: 'paper' } })).balances.length).toBeGreaterThan(0);
    expect((await ok('paperReset', { body: { exchange: 'paper' } })).exchange).toBe('paper');
    expect((await ok('paperSweepDust', { body: { exchange: 'paper' } })).swept).toEqual([]);
  });

  let botId = '';
  it('answers the bot calls, with a cycle closed, one open, a grid and a refused order', async () => {
    const bot = await ok('userBotCreate', { body: { type: 'martin', exchangeId: 1, symbol: 'BTC/USDT', name: 'Cycle', params: martin } });
    botId = bot.id;
    expect((await ok('userBotOperation', { query: { id: botId, action: 'start' } }))?.status).toBe('running');
    await step('BTC/USDT', '49000'); // the add
    await step('BTC/USDT', '49900'); // take profit: cycle 1 closes
    await step('BTC/USDT', '49950'); // cycle 2 opens
    const detail = await ok('userBotDetail', { query: { id: botId } });
    expect(detail.fills.length).toBeGreaterThan(0);
    expect(detail.levels.length).toBeGreaterThan(0);
    await ok('userBotInfo', { query: { id: botId } });
    expect((await ok('userBotPositions', { query: { id: botId, page: '1', page_size: '10' } })).list.map((p) => p.status)).toEqual(['open', 'closed']);
    expect(await ok('userPositionAdds', { query: { id: botId, cycle: '1' } })).toHaveLength(3);
    expect((await ok('userPositionAdds', { query: { id: botId } })).length).toBeGreaterThan(0);
    expect((await ok('userBotActions', { query: { id: botId, page_size: '50' } })).list.length).toBeGreaterThan(3);

    const g = await ok('userBotCreate', { body: { type: 'grid', exchangeId: 1, symbol: 'BTC/USDT', params: grid } });
    await ok('userBotOperation', { query: { id: g.id, action: 'start' } });
    await step('BTC/USDT', '47400');
    expect((await ok('userBotDetail', { query: { id: g.id } })).grid?.levels.length).toBeGreaterThan(0);

    // An order the exchange refuses (the balance runs out) pauses the bot with its reason and a warning.
    const poor = await ok('userBotCreate', {
      body: { type: 'martin', exchangeId: 1, symbol: 'ETH/USDT', params: { ...martin, investment: '3000', firstOrder: '1000', multiplier: '1', maxPositions: 3 } },
    });
    await ok('userBotOperation', { query: { id: poor.id, action: 'start' } });
    // Funded at its start; then the Paper balance is spent elsewhere, so the next add is refused.
    await t.db.updateTable('paper_balances').set({ amount: '1' }).where('currency', '=', 'USDT').execute();
    await step('ETH/USDT', '2940');
    await step('ETH/USDT', '2881');
    await step('ETH/USDT', '2823');
    expect((await ok('userBotInfo', { query: { id: poor.id } })).error).not.toBeNull();
    await t.db.updateTable('paper_balances').set({ amount: '5000' }).where('currency', '=', 'USDT').execute();

    const list = await ok('userBotList', { query: { page: '1', page_size: '10', exchange: 'paper', mode: 'simulation' } });
    expect(list.total).toBe(3);
    await ok('userBotList', { query: { status: 'running' } });
    await ok('userBotCount', { query: { exchange: 'paper', mode: 'simulation' } });
    expect((await ok('userPositions', { query: { page: '1', page_size: '10' } })).list.length).toBeGreaterThan(0);
    await ok('userBill', { query: { mode: 'simulation' } });
    expect((await ok('userBillLogs', { query: { page: '1', page_size: '10', mode: 'simulation' } })).list.length).toBeGreaterThan(0);
    const group = await ok('userBillGroup', { query: { mode: 'simulation' } });
    expect(group.byBot.length).toBeGreaterThan(0);
    // Every bot's log, PnL over time, the portfolio.
    expect((await ok('userActions', { query: { page: '1', page_size: '10', kind: 'start' } })).list.length).toBeGreaterThan(0);
    await ok('userActions', { query: { bot: botId, from: '2026-01-01', to: '2099-12-31' } });
    expect((await ok('userPnl', { query: { id: botId, days: '7' } })).points).toHaveLength(7);
    await ok('userPnl', { query: { mode: 'simulation' } });
    expect((await ok('userPortfolio')).accounts.length).toBeGreaterThan(0);
  });

  it('answers edit, batch and delete of a bot', async () => {
    const x = await ok('userBotCreate', { body: { type: 'martin', exchangeId: 1, symbol: 'BTC/USDT', params: martin, ai: { risk: 'balanced' } } });
    expect(x.ai?.risk).toBe('balanced');
    expect((await ok('userBotUpdate', { query: { id: x.id }, body: { name: 'Edited', params: { ...martin, takeProfit: '2' } } })).name).toBe('Edited');
    const { task_id } = await ok('userBotBatch', { query: { action: 'start', ids: `${x.id},999999` } });
    let status = await ok('userBotBatchStatus', { query: { task_id } });
    while (status.status !== 'done') status = await ok('userBotBatchStatus', { query: { task_id } });
    expect(status.results).toHaveLength(2);
    await ok('userBotOperation', { query: { id: x.id, action: 'stop' } });
    expect(await ok('userBotOperation', { query: { id: x.id, action: 'delete' } })).toBeNull();
  });

  it('answers the notices', async () => {
    const notices = await ok('noticeList', { query: { kind: 'warning', page: '1', page_size: '10' } });
    expect(notices.list.length).toBeGreaterThan(0);
    expect((await ok('noticeDetail', { query: { id: notices.list[0]!.id } })).read).toBe(true);
    await ok('noticeRead', { body: { all: true } });
  });

  it('answers the alert calls', async () => {
    expect((await ok('alertPushKey')).publicKey).toMatch(/^[A-Za-z0-9_-]{86,88}$/);
    const endpoint = 'https://push.example.test/send/abc';
    const keys = { p256dh: 'BNcRdreALRFXTkOOUHK1EtK2wtaz5Ry4YfYCA_0QTpQtUbVlUls0VJXg7A8u-Ts1XbjhazAkj7I99e8QcYP7DkM', auth: 'tBHItJI5svbpez7KI4CCXg' };
    expect(await ok('alertSubscribe', { body: { endpoint, keys } })).toBeNull();
    expect((await ok('alertSettings', { query: { endpoint } })).thisDevice).toBe(true);
    expect((await ok('alertSettingsSet', { body: { modes: { fills: 'off' }, quiet: { from: '23:00', to: '07:00', zone: 'Asia/Shanghai' } } })).modes.fills).toBe('off');
    expect(await ok('alertTest')).toEqual({ devices: 1, webhook: false });
    expect((await ok('alertWebhookSet', { body: { url: 'https://93.184.215.14/hook' } })).secret).toMatch(/^whsec_/);
    expect(await ok('alertWebhookDelete')).toBeNull();
    expect(await ok('alertUnsubscribe', { body: { endpoint } })).toBeNull();
  });

  it('answers the money calls: deposit, withdraw, change, the logs', async () => {
    const info = await ok('userDepositInfo');
    expect(info.enabled).toBe(true);
    expect(info.faucet).toBe(true);
    expect((await ok('userFaucet', { body: { address: (await chain.trader()).address } })).usdt).toBe('1000');
    await ok('userDepositAddress', { query: { network: 'BSC' } });
    const trader = await chain.trader('50');
    const value = parseUnits('50', 18);
    await chain.public.waitForTransactionReceipt({ hash: await trader.wallet.writeContract({ address: chain.usdt, abi: tokenAbi, functionName: 'approve', args: [chain.deposit, value] }) });
    const hash = await trader.wallet.writeContract({ address: chain.deposit, abi: depositAbi, functionName: 'deposit', args: [value, BigInt(meSn)] });
    await chain.public.waitForTransactionReceipt({ hash });
    expect((await ok('userDeposit', { body: { network: 'BSC', txHash: hash } })).status).toBe('submitted');
    await chain.mine(1);
    await (await side.watcher()).catchUp();
    expect((await ok('userDepositInfo')).recent[0]).toMatchObject({ status: 'credited', amount: '50' });
    // A hash the chain has not seen (yet): reported, zero confirmations.
    await ok('userDeposit', { body: { txHash: `0x${'ab'.repeat(32)}` } });

    await ok('userWithdrawInfo');
    const out = await ok('userWithdraw', { body: { network: 'BSC', address: (await chain.trader()).address, amount: '20', payPassword: PAY, requestId: 'answers-withdraw-1' } });
    expect(out.status).toBe('pending');
    expect((await ok('userWithdrawInfo')).recent.length).toBeGreaterThan(0);
    expect((await ok('userChangeInfo')).pairs.length).toBeGreaterThan(0);
    await ok('userChange', { body: { from: 'usdt', to: 'fuel', amount: '5', payPassword: PAY } });
    await ok('userAccount');
    expect((await ok('userAccountLogs', { query: { page: '1', page_size: '50' } })).list.length).toBeGreaterThan(3);
    await ok('userAccountLogs', { query: { type: 'usdt' } });
  });

  it('answers the security calls: the summary, the wallet statement, two-factor on and off', async () => {
    expect((await ok('userSecurity')).twoFactor).toBe(false);
    await ok('userPaymentNonce');
    const setup = await ok('userTwoFactorSetup', { body: {} });
    const totp = new TOTP({ secret: Secret.fromBase32(setup.secret) });
    const { recoveryCodes } = await ok('userTwoFactorEnable', { body: { code: totp.generate() } });
    expect((await ok('userSecurity')).recoveryCodesLeft).toBe(recoveryCodes.length);
    expect((await ok('userWithdrawInfo')).twoFactor).toBe(true);
    await ok('userTwoFactorDisable', { body: { code: recoveryCodes[0]! } });
  });

  it('answers the session calls: the list, signing the others out, signing one out', async () => {
    const reg = await t.app.inject({ method: 'POST', url: '/api/login/register', payload: await registerPayload(t.app) });
    const fresh = bearer(reg.json().data.token);
    const sessions = await ok('userSessions', { query: { page: '1', page_size: '10' } }, fresh);
    expect(sessions.list.map((s) => s.current)).toEqual([true]);
    expect((await ok('userSessionEndOthers', { body: {} }, fresh)).ended).toBe(0);
    await ok('userSessionEnd', { body: { id: sessions.list[0]!.id } }, fresh);
  });

  it('answers the team and the rank', async () => {
    const team = await ok('userReferrals', { query: { page: '1', limit: '10' } }, top);
    expect(team.list.map((m) => m.level).sort()).toEqual([1, 1, 2]);
    const rank = await ok('marketUserRank', { query: { period: 'all', mode: 'simulation', page: '1', limit: '10' } });
    expect(rank.me?.me).toBe(true);
    await ok('marketUserRank');
    await ok('marketBotRank', { query: { period: 'all', mode: 'simulation', page: '1', limit: '10' } });
  });

  it('answers a backtest and the AI search', async () => {
    const backtest = await ok('strategyBacktest', { body: { type: 'martin', exchangeId: 1, symbol: 'BTC/USDT', days: 7, params: martin } });
    expect(backtest.equity.length).toBeGreaterThan(0);
    await ok('strategyBacktest', { body: { type: 'grid', exchangeId: 1, symbol: 'BTC/USDT', days: 7, params: { ...grid, lower: '40000', upper: '60000' } } });
    const search = await ok('strategyAiSearch', { body: { exchangeId: 1, symbol: 'ETH/USDT', investment: '1000', risk: 'balanced' } });
    expect(search.proposals.length).toBeGreaterThan(0);
    await ok('strategyAiQueue');
    // Two backtests and the tests' small AI search (TEST_SEARCH_WINDOW) on one heavy thread: 1.5-1.7 s
    // alone, 5-14 s beside the browser tests on a 2-core machine, and once 30 s: a minute and a half.
  }, 90_000);

  it('answers the signal webhook calls, with a signal recorded', async () => {
    const dca = { ...testDcaParams, start: { kind: 'now' } };
    const bot = await ok('userBotCreate', { body: { type: 'dca', exchangeId: 1, symbol: 'BTC/USDT', params: dca } });
    expect((await ok('userBotWebhook', { query: { id: bot.id } })).enabled).toBe(false);
    const hook = await ok('userBotWebhookReset', { body: { id: bot.id } });
    expect(hook.enabled).toBe(true);
    // Not started: the signal is recorded and ignored.
    await t.app.inject({ method: 'POST', url: hook.path ?? '', payload: { action: 'buy', id: 'a1', price: '50000', note: 'n' } });
    expect((await ok('userBotSignals', { query: { id: bot.id, page: '1', page_size: '10' } })).list).toHaveLength(1);
    // Whether the rank shows its parameters: off until its owner turns it on.
    expect((await ok('userBotShare', { query: { id: bot.id } })).shareRules).toBe(false);
    expect((await ok('userBotShareSet', { body: { id: bot.id, shareRules: true } })).shareRules).toBe(true);
  });

  it('has called every call of contract/calls.ts', () => {
    expect(Object.keys(calls).filter((name) => !seen.has(name as CallName))).toEqual([]);
  });
});
