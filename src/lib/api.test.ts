import { afterEach, beforeEach, describe, expect, expectTypeOf, it, vi } from 'vitest';
import { calls, ourCalls, specCallCount, type CallName } from '../../contract/calls.ts';
import { store } from './store.ts';
import { toastsAtom } from './toast.ts';
import { api, createCaches, BOT_TYPES_CACHE_KEY, BOT_TYPES_TTL_MS, EXCHANGES_CACHE_KEY, EXCHANGES_TTL_MS } from './api.ts';

let sent: { method: string; url: URL; body: unknown }[];
let answer: () => Response;

const envelope = (data: unknown) => new Response(JSON.stringify({ code: 1, msg: '', data }), { status: 200 });

beforeEach(() => {
  sent = [];
  answer = () => envelope(null);
  vi.stubGlobal(
    'fetch',
    vi.fn(async (req: Request) => {
      const text = await req.clone().text();
      sent.push({ method: req.method, url: new URL(req.url), body: text ? JSON.parse(text) : undefined });
      return answer();
    }),
  );
  store.set(toastsAtom, []);
  localStorage.clear();
});

afterEach(() => {
  vi.unstubAllGlobals();
});

/** docs/product.md §7, one entry per table row (45 rows; /api/user/api is GET and POST). */
const specRows = [
  'POST /login/account',
  'GET /login/nonce',
  'POST /login/verify',
  'POST /login/register',
  'POST /user/bind',
  'GET /auth/profile',
  'GET /user/index',
  'POST /user/setInfo',
  'GET /market/symbols',
  'GET /market/exchanges',
  'POST /exchanges/bind',
  'DELETE /exchanges/bind/:id',
  'GET,POST /user/api',
  'GET /market/botTypes',
  'GET /market/typeBots',
  'GET /market/price',
  'GET /index/banners',
  'GET /user/asset',
  'GET /user/account',
  'GET /user/accountLogs',
  'GET /user/bill',
  'GET /user/billLogs',
  'GET /user/billGroup',
  'POST /user/deposit',
  'GET /user/depositInfo',
  'GET /user/depositAddress',
  'POST /user/botCreate',
  'GET /user/botInfo',
  'GET /user/botDetail',
  'GET /user/botPositions',
  'GET /user/positionAdds',
  'PUT /user/botUpdate',
  'GET /user/botList',
  'GET /user/botCount',
  'GET /user/botOperation',
  'GET /user/botBatch',
  'GET /user/botBatchStatus',
  'GET /user/botActions',
  'GET /user/withdrawInfo',
  'POST /user/withdraw',
  'GET /user/changeInfo',
  'POST /user/change',
  'GET /market/userRank',
  'GET /user/referrals',
  'GET /user/positions',
];

const names = Object.keys(calls) as CallName[];
const callOf = (method: string, path: string) => names.find((n) => calls[n].method === method && calls[n].path === path);

describe('api', () => {
  it('has a function for every call of contract/calls.ts and nothing else', () => {
    expect(Object.keys(api).sort()).toEqual([...names].sort());
    for (const name of names) expect(typeof api[name]).toBe('function');
  });

  it('covers the 45 rows (46 calls) of docs/product.md §7 plus logout and password', () => {
    expect(specRows).toHaveLength(45);
    const fromSpec = specRows.flatMap((row) => {
      const [methods, path] = row.split(' ') as [string, string];
      return methods.split(',').map((method) => callOf(method, path));
    });
    expect(fromSpec).toHaveLength(specCallCount);
    expect(fromSpec).not.toContain(undefined);
    for (const name of fromSpec) expect(api).toHaveProperty(name!);
    const extra = names.filter((n) => !fromSpec.includes(n));
    expect(extra.sort()).toEqual([...ourCalls].sort());
    expect(api.loginLogout).toBeTypeOf('function');
    expect(api.userPassword).toBeTypeOf('function');
  });

  it('sends each call to its method and path, its argument as params, query or body', async () => {
    for (const name of names) {
      const { method, path } = calls[name];
      const fn = api[name] as (...args: unknown[]) => Promise<unknown>;
      if (name === 'userBotUpdate') await fn({ id: '5' }, { x: 1 });
      else if (path.includes(':')) await fn({ id: '5' });
      else await fn({ k: 'v' });
      const req = sent.at(-1)!;
      expect(req.method, name).toBe(method);
      expect(req.url.pathname, name).toBe(`/api${path.replace(':id', '5')}`);
      if (name === 'userBotUpdate') {
        expect(req.url.search).toBe('?id=5');
        expect(req.body).toEqual({ x: 1 });
      } else if (path.includes(':')) {
        expect(req.url.search, name).toBe('');
        expect(req.body, name).toBeUndefined();
      } else if (method === 'GET' || method === 'DELETE') {
        expect(req.url.search, name).toBe('?k=v');
        expect(req.body, name).toBeUndefined();
      } else {
        expect(req.url.search, name).toBe('');
        const expected = 'terminal' in calls[name] ? { k: 'v', terminal: 1 } : { k: 'v' };
        expect(req.body, name).toEqual(expected);
      }
    }
    expect(sent).toHaveLength(names.length);
  });

  it('sends no body or query when the argument is left out, and passes { show }', async () => {
    answer = () => envelope({ ok: true });
    expect(await api.userIndex()).toEqual({ ok: true });
    expect(sent.at(-1)!.url.search).toBe('');
    expect(await api.loginLogout(undefined, { show: false })).toEqual({ ok: true });
    expect(sent.at(-1)!.body).toBeUndefined();
    expect(store.get(toastsAtom)).toEqual([]);
    await api.loginLogout();
    expect(store.get(toastsAtom).map((t) => t.text)).toEqual(['操作成功']);
  });

  it('is typed from the contract: a wrong body or query does not compile', () => {
    expectTypeOf(api.userBill).returns.resolves.toEqualTypeOf<{ today: number; total: number; unrealized: number; totalPnl: number; unpriced: number }>();
    expectTypeOf(api.userBotBatch).returns.resolves.toEqualTypeOf<{ task_id: string }>();
    // Never run: tsc checks these lines (each @ts-expect-error fails the type check if the line compiles).
    const typeChecks = () => {
      void api.loginAccount({ account: 'a', password: 'b' });
      void api.loginVerify({ address: '0x', signature: '0x', terminal: 4 });
      void api.userBotList();
      void api.userBotList({ page: '2' });
      void api.exchangesUnbind({ id: '1' });
      void api.userBotUpdate({ id: '1' }, { name: 'x', params: { investment: '100', firstOrder: '10', multiplier: '2', maxPositions: 3, addTrigger: '2', takeProfit: '1', repeat: true } });
      // @ts-expect-error an unknown key
      void api.loginAccount({ account: 'a', password: 'b', admin: true });
      // @ts-expect-error a missing password
      void api.loginAccount({ account: 'a' });
      // @ts-expect-error terminal 5 does not exist
      void api.loginAccount({ account: 'a', password: 'b', terminal: 5 });
      // @ts-expect-error queries are strings
      void api.userBotList({ page: 2 });
      // @ts-expect-error botInfo needs its id
      void api.userBotInfo();
      // @ts-expect-error unbind needs its path id
      void api.exchangesUnbind();
      // @ts-expect-error setInfo only takes the known fields
      void api.userSetInfo({ field: 'role', value: 'admin' });
    };
    void typeChecks;
  });
});

describe('caches', () => {
  const exchanges = { exchanges: [{ id: 1, name: 'binance' }], ips: ['10.0.0.1', '10.0.0.2'] };
  let time: number;
  const now = () => time;
  beforeEach(() => {
    time = 1_700_000_000_000;
  });

  it('getExchanges: memory and localStorage for 5 minutes, then the server again', async () => {
    answer = () => envelope(exchanges);
    const caches = createCaches(now);
    expect(await caches.getExchanges()).toEqual(exchanges);
    expect(sent).toHaveLength(1);
    expect(sent[0]!.url.pathname).toBe('/api/market/exchanges');
    expect(JSON.parse(localStorage.getItem(EXCHANGES_CACHE_KEY)!)).toEqual({ at: time, data: exchanges });

    time += EXCHANGES_TTL_MS - 1;
    expect(await caches.getExchanges()).toEqual(exchanges);
    // A reload (a fresh instance) finds it in localStorage.
    expect(await createCaches(now).getExchanges()).toEqual(exchanges);
    expect(sent).toHaveLength(1);

    time += 1;
    await caches.getExchanges();
    expect(sent).toHaveLength(2);
    expect(JSON.parse(localStorage.getItem(EXCHANGES_CACHE_KEY)!).at).toBe(time);
  });

  it('getExchanges: callers at the same time share one request; a failure is not cached', async () => {
    answer = () => envelope(exchanges);
    const caches = createCaches(now);
    await Promise.all([caches.getExchanges(), caches.getExchanges(), caches.getExchanges()]);
    expect(sent).toHaveLength(1);

    const other = createCaches(now);
    localStorage.clear();
    answer = () => new Response(JSON.stringify({ code: 1000, msg: '服务器错误', data: null }));
    await expect(other.getExchanges()).rejects.toMatchObject({ code: 1000 });
    expect(localStorage.getItem(EXCHANGES_CACHE_KEY)).toBeNull();
    answer = () => envelope(exchanges);
    expect(await other.getExchanges()).toEqual(exchanges);
    expect(sent).toHaveLength(3);
  });

  it('getExchanges: ignores a corrupt stored entry', async () => {
    localStorage.setItem(EXCHANGES_CACHE_KEY, '{not json');
    answer = () => envelope(exchanges);
    expect(await createCaches(now).getExchanges()).toEqual(exchanges);
    expect(sent).toHaveLength(1);
  });

  it('getServerIps: from the exchange cache, else 127.0.0.1', async () => {
    const caches = createCaches(now);
    expect(caches.getServerIps()).toEqual(['127.0.0.1']);
    answer = () => envelope(exchanges);
    await caches.getExchanges();
    expect(caches.getServerIps()).toEqual(['10.0.0.1', '10.0.0.2']);
    // After a reload, from localStorage without a request.
    expect(createCaches(now).getServerIps()).toEqual(['10.0.0.1', '10.0.0.2']);
    localStorage.setItem(EXCHANGES_CACHE_KEY, JSON.stringify({ at: time, data: { exchanges: [], ips: [] } }));
    expect(createCaches(now).getServerIps()).toEqual(['127.0.0.1']);
    expect(sent).toHaveLength(1);
  });

  it('getBotTypes: localStorage for 24 hours, then the server again', async () => {
    const types = [
      { id: 1, name: 'grid' },
      { id: 2, name: 'dca' },
    ];
    answer = () => envelope(types);
    expect(await createCaches(now).getBotTypes()).toEqual(types);
    expect(sent.map((r) => r.url.pathname)).toEqual(['/api/market/botTypes']);
    expect(JSON.parse(localStorage.getItem(BOT_TYPES_CACHE_KEY)!)).toEqual({ at: time, data: types });

    time += BOT_TYPES_TTL_MS - 1;
    expect(await createCaches(now).getBotTypes()).toEqual(types);
    expect(sent).toHaveLength(1);

    time += 1;
    await createCaches(now).getBotTypes();
    expect(sent).toHaveLength(2);
  });

  it('use Date.now by default', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      vi.setSystemTime(time);
      answer = () => envelope([1]);
      await createCaches().getBotTypes();
      expect(JSON.parse(localStorage.getItem(BOT_TYPES_CACHE_KEY)!).at).toBe(time);
    } finally {
      vi.useRealTimers();
    }
  });
});
