import { afterEach, beforeEach, describe, expect, it, vi, type Mock } from 'vitest';
import type { CallRoute } from '../../contract/call.ts';
import { calls } from 'virtual:contract-calls';
import type { CallName } from '../../contract/calls.ts';
import { store } from './store.ts';
import { toastsAtom } from './toast.ts';
import { setNavigator } from './navigation.ts';
import { activateLanguage } from './i18n.ts';
import { tokenAtom } from '../state/session.ts';
import { PREFERENCES_KEY, setLanguageAtom } from '../state/preferences.ts';
import { applyPreferences } from '../state/apply-preferences.ts';
import { ApiError, detectTerminal, errorText, request, type CallInput } from './http.ts';

const martinParams = { investment: '100', firstOrder: '10', multiplier: '2', maxPositions: 3, addTrigger: '2', takeProfit: '1', repeat: true };

// ---- helpers ----

let navigate: Mock<(path: string) => void>;
let sent: Request[];
let bodies: unknown[];

/** Stubs fetch: every request and its JSON body (ky drops the body afterwards) are recorded, the handler answers. */
function serve(handler: (req: Request) => Response | Promise<Response>): void {
  vi.stubGlobal(
    'fetch',
    vi.fn(async (req: Request) => {
      sent.push(req);
      const text = await req.clone().text();
      bodies.push(text ? JSON.parse(text) : undefined);
      return handler(req);
    }),
  );
}
const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
/** Answers every call with this envelope (HTTP 200 unless told). */
const reply = (body: unknown, status = 200) => serve(() => json(body, status));

type Outcome = { data?: unknown; error?: ApiError };
/** Runs a call and settles it (the fetch stub answers at once; timers are fake). */
async function run<N extends CallName>(name: N, input?: CallInput<N>, options?: { show?: boolean }): Promise<Outcome> {
  return request(name, input, options).then(
    (data) => ({ data }),
    (error: ApiError) => ({ error }),
  );
}
const toasts = () => store.get(toastsAtom).map((t) => [t.kind, t.text]);
const lastRequest = () => sent.at(-1)!;
const lastBody = () => bodies.at(-1) as Record<string, unknown> | undefined;

/** The calls docs/product.md §7 names as screen-handled, and the no-auto-error ones. */
const specScreenCalls = ['userBotList', 'userBotCreate', 'userBotUpdate', 'userBotOperation', 'userBotBatch', 'userBotActions', 'userBotDetail', 'userBotInfo', 'userBotPositions'] as const;
/** docs/product.md §7's four, plus ours: the challenge that register and login solve first. */
const noAutoErrorCalls = ['loginAccount', 'loginRegister', 'loginNonce', 'loginVerify', 'loginChallenge'] as const;
/** Our calls whose screens show their errors themselves: the 2FA code fields, the bind screen. */
const ourScreenCalls = ['userTwoFactorEnable', 'userTwoFactorDisable', 'exchangesBind', 'exchangesUnbind', 'alertTest', 'alertWebhookSet'] as const;

/** A valid-looking input for a call, so requests of every kind can be made in loops. */
const sample: Partial<{ [N in CallName]: CallInput<N> }> = {
  userBotInfo: { query: { id: '7' } },
  userBotDetail: { query: { id: '7' } },
  userBotPositions: { query: { id: '7' } },
  userBotActions: { query: { id: '7' } },
  userBotOperation: { query: { id: '7', action: 'delete' } },
  userBotBatch: { query: { action: 'stop', ids: '1,2' } },
  userBotUpdate: { query: { id: '7' }, body: { name: 'x', params: martinParams } },
  userBotCreate: { body: { type: 'martin', exchangeId: 1, symbol: 'BTC/USDT', params: martinParams } },
  loginAccount: { body: { account: 'trader', password: 'secret123' } },
  loginRegister: { body: { account: 'trader', password: 'secret123', confirm: 'secret123' } },
  loginNonce: { query: { address: `0x${'a'.repeat(40)}` } },
  loginVerify: { body: { address: `0x${'a'.repeat(40)}`, signature: '0xab' } },
  exchangesUnbind: { params: { id: '3' } },
  exchangesBind: { body: { exchangeId: 1, apiKey: 'paperKey12345678', secretKey: 'paperSecret12345678' } },
};

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
  sent = [];
  bodies = [];
  navigate = vi.fn();
  setNavigator(navigate);
  store.set(toastsAtom, []);
  localStorage.clear();
  sessionStorage.clear();
});

afterEach(async () => {
  // Let pending navigations fire so no state leaks into the next test.
  await vi.runOnlyPendingTimersAsync();
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  store.set(tokenAtom, '');
  store.set(setLanguageAtom, 'zh');
  activateLanguage('zh');
});

// ---- requests ----

describe('what every request carries', () => {
  it('sends Authorization only when a token is stored, read at request time', async () => {
    reply({ code: 1, msg: '', data: null });
    await run('authProfile');
    expect(lastRequest().headers.has('authorization')).toBe(false);
    store.set(tokenAtom, 'tok-1');
    await run('authProfile');
    expect(lastRequest().headers.get('authorization')).toBe('Bearer tok-1');
    store.set(tokenAtom, 'tok-2');
    await run('loginAccount', sample.loginAccount);
    expect(lastRequest().headers.get('authorization')).toBe('Bearer tok-2');
  });

  it('sends the language of the language atom', async () => {
    reply({ code: 1, msg: '', data: null });
    await run('userIndex');
    expect(lastRequest().headers.get('lang')).toBe('zh');
    store.set(setLanguageAtom, 'en');
    await run('userIndex');
    expect(lastRequest().headers.get('lang')).toBe('en');
  });

  it('marks exactly login, register, nonce, verify (and the challenge) with x-no-auto-error', async () => {
    reply({ code: 1, msg: '', data: null });
    const marked: string[] = [];
    for (const name of Object.keys(calls) as CallName[]) {
      await run(name, sample[name] as never, { show: false });
      if (lastRequest().headers.get('x-no-auto-error') === '1') marked.push(name);
    }
    expect(sent).toHaveLength(Object.keys(calls).length);
    expect(marked.sort()).toEqual([...noAutoErrorCalls].sort());
  });

  it('builds /api paths with the method, encoded params and the defined query values', async () => {
    reply({ code: 1, msg: '', data: null });
    await run('exchangesUnbind', { params: { id: 'a/b c' } });
    expect(lastRequest().method).toBe('DELETE');
    expect(new URL(lastRequest().url).pathname).toBe('/api/exchanges/bind/a%2Fb%20c');
    await run('userBotList', { query: { page: '2', page_size: undefined } });
    expect(lastRequest().method).toBe('GET');
    expect(new URL(lastRequest().url).pathname).toBe('/api/user/botList');
    expect(new URL(lastRequest().url).search).toBe('?page=2');
    await run('userBotUpdate', { query: { id: '9' }, body: { name: 'grid', params: martinParams } });
    expect(lastRequest().method).toBe('PUT');
    expect(new URL(lastRequest().url).search).toBe('?id=9');
    expect(lastRequest().headers.get('content-type')).toBe('application/json');
    expect(lastBody()).toEqual({ name: 'grid', params: martinParams });
  });

  it('adds the detected terminal to login, register and verify, keeps a given one, and nowhere else', async () => {
    reply({ code: 1, msg: '', data: null });
    const ua = vi.spyOn(navigator, 'userAgent', 'get');
    ua.mockReturnValue('Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X)');
    await run('loginAccount', sample.loginAccount);
    expect(lastBody()).toEqual({ account: 'trader', password: 'secret123', terminal: 2 });
    ua.mockReturnValue('Mozilla/5.0 (Linux; Android 15; Pixel 9)');
    await run('loginRegister', sample.loginRegister);
    expect(lastBody()?.terminal).toBe(3);
    ua.mockReturnValue('Mozilla/5.0 (X11; Linux x86_64)');
    await run('loginAccount', sample.loginAccount);
    expect(lastBody()?.terminal).toBe(1);
    await run('loginVerify', { body: { ...sample.loginVerify!.body!, terminal: 4 } });
    expect(lastBody()?.terminal).toBe(4);
    await run('userSetInfo', { body: { field: 'nickname', value: 'n' } });
    expect(lastBody()).toEqual({ field: 'nickname', value: 'n' });
  });

  it('detects iOS (also iPadOS with its Mac user agent), Android, and the default', () => {
    expect(detectTerminal('Mozilla/5.0 (iPad; CPU OS 17_0 like Mac OS X)', 5)).toBe(2);
    expect(detectTerminal('Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7)', 5)).toBe(2);
    expect(detectTerminal('Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7)', 0)).toBe(1);
    expect(detectTerminal('Mozilla/5.0 (Linux; Android 14)', 5)).toBe(3);
    expect(detectTerminal('Mozilla/5.0 (Windows NT 10.0; Win64; x64)', 0)).toBe(1);
  });

  it('never retries, not even a GET on 503 or a network failure', async () => {
    serve(() => json({ code: 5004, msg: 'down' }, 503));
    await run('userIndex');
    expect(sent).toHaveLength(1);
    sent = [];
    serve(() => Promise.reject(new TypeError('Failed to fetch')));
    await run('userIndex');
    expect(fetch).toHaveBeenCalledTimes(1);
  });
});

// ---- codes ----

describe('code 1', () => {
  it('returns data and toasts the server message on a write', async () => {
    reply({ code: 1, msg: '保存成功', data: { nickname: 'n' } });
    expect(await run('userSetInfo', { body: { field: 'nickname', value: 'n' } })).toEqual({ data: { nickname: 'n' } });
    expect(toasts()).toEqual([['success', '保存成功']]);
  });

  it('toasts 操作成功 when there is no message', async () => {
    reply({ code: 1, data: null });
    await run('userPassword', { body: { type: 'login', password: 'abcdefg1', confirm: 'abcdefg1' } });
    expect(toasts()).toEqual([['success', '操作成功']]);
  });

  it("also toasts on screen-handled writes (only their errors are the screen's)", async () => {
    reply({ code: 1, msg: '创建成功', data: { id: 1 } });
    await run('userBotCreate', sample.userBotCreate);
    expect(toasts()).toEqual([['success', '创建成功']]);
  });

  it('keeps GETs quiet', async () => {
    reply({ code: 1, msg: '获取成功', data: { today: 1, total: 2 } });
    expect(await run('userBill')).toEqual({ data: { today: 1, total: 2 } });
    expect(toasts()).toEqual([]);
  });

  it('shows nothing when show is 0, or when the caller says show: false', async () => {
    reply({ code: 1, msg: '保存成功', data: 5, show: 0 });
    expect(await run('userSetInfo', { body: { field: 'nickname', value: 'n' } })).toEqual({ data: 5 });
    reply({ code: 1, msg: '保存成功', data: 6 });
    expect(await run('loginLogout', undefined, { show: false })).toEqual({ data: 6 });
    expect(toasts()).toEqual([]);
  });
});

describe.each([
  [101, '请先登录'],
  [1006, '登录已过期，请重新登录'],
  [2003, '会话已失效或账号已停用，请重新登录'],
])('session end: code %i', (code, msg) => {
  beforeEach(() => {
    store.set(tokenAtom, 'tok');
    localStorage.setItem('user', '{"sn":"1"}');
    localStorage.setItem(PREFERENCES_KEY, JSON.stringify({ theme: 'dark', language: 'zh' }));
    sessionStorage.setItem('draft', 'x');
  });

  it('toasts the server message, wipes storage but the preferences, and goes to /login after 1.5 s', async () => {
    reply({ code, msg, data: null });
    const { error } = await run('userIndex');
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ kind: 'code', code, message: msg });
    expect(toasts()).toEqual([['error', msg]]);
    expect(localStorage.getItem('token')).toBeNull();
    expect(localStorage.getItem('user')).toBeNull();
    expect(sessionStorage.length).toBe(0);
    expect(localStorage.getItem(PREFERENCES_KEY)).toBe(JSON.stringify({ theme: 'dark', language: 'zh' }));
    expect(store.get(tokenAtom)).toBe('');
    await vi.advanceTimersByTimeAsync(1499);
    expect(navigate).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(navigate).toHaveBeenCalledExactlyOnceWith('/login');
  });

  it('toasts even on a screen-handled call, since the session is over', async () => {
    reply({ code, msg, data: null });
    expect((await run('userBotList')).error).toMatchObject({ code });
    expect(toasts()).toEqual([['error', msg]]);
    expect(localStorage.getItem('user')).toBeNull();
    await vi.advanceTimersByTimeAsync(1500);
    expect(navigate).toHaveBeenCalledWith('/login');
  });

  it('toasts even when the call was a quiet background refresh (show: false), so the trader sees why they leave', async () => {
    reply({ code, msg, data: null });
    await run('userBill', undefined, { show: false });
    expect(toasts()).toEqual([['error', msg]]);
    await vi.advanceTimersByTimeAsync(1500);
    expect(navigate).toHaveBeenCalledWith('/login');
  });

  it('with show 0 shows nothing but still wipes and leaves', async () => {
    reply({ code, msg, data: null, show: 0 });
    await run('userIndex');
    expect(toasts()).toEqual([]);
    expect(localStorage.getItem('user')).toBeNull();
    await vi.advanceTimersByTimeAsync(1500);
    expect(navigate).toHaveBeenCalledWith('/login');
  });
});

describe('session end from several calls at once', () => {
  it('toasts once and navigates once, and again on a later session end', async () => {
    reply({ code: 1006, msg: '登录已过期，请重新登录', data: null });
    await Promise.all([run('userIndex'), run('userBill'), run('userAccount')]);
    expect(toasts()).toEqual([['error', '登录已过期，请重新登录']]);
    await vi.advanceTimersByTimeAsync(1500);
    expect(navigate).toHaveBeenCalledTimes(1);
    await run('userIndex');
    await vi.advanceTimersByTimeAsync(1500);
    expect(navigate).toHaveBeenCalledTimes(2);
  });
});

describe('other codes', () => {
  it('toast the server message and throw it with code and data', async () => {
    reply({ code: 1007, msg: '余额不足', data: { need: '5' } });
    const { error } = await run('userWithdraw', { body: { network: 'BSC', address: `0x${'1'.repeat(40)}`, amount: '5', payPassword: '123456', requestId: 'req-12345678' } });
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ kind: 'code', code: 1007, message: '余额不足', data: { need: '5' } });
    expect(toasts()).toEqual([['error', '余额不足']]);
    expect(navigate).not.toHaveBeenCalled();
  });

  it('fall back to 操作失败，请稍后重试 without a message (also with `message` instead of `msg`)', async () => {
    reply({ code: 3101, data: null });
    expect((await run('userBotCount')).error).toMatchObject({ code: 3101, message: '操作失败，请稍后重试' });
    reply({ code: 3101, message: '策略不存在', data: null });
    expect((await run('userPositionAdds', { query: { id: '1' } })).error?.message).toBe('策略不存在');
    expect(toasts()).toEqual([
      ['error', '操作失败，请稍后重试'],
      ['error', '策略不存在'],
    ]);
  });

  it('toast nothing with show 0 or show: false, and still throw', async () => {
    reply({ code: 1007, msg: '余额不足', data: null, show: 0 });
    expect((await run('userBotBatchStatus', { query: { task_id: 'a' } })).error).toMatchObject({ code: 1007 });
    reply({ code: 1007, msg: '余额不足', data: null });
    expect((await run('userAsset', {}, { show: false })).error).toMatchObject({ code: 1007 });
    expect(toasts()).toEqual([]);
  });
});

describe('redirect', () => {
  it('navigates there after 1 s', async () => {
    reply({ code: 1, msg: '已提交', data: null, redirect: '/assets' });
    await run('userDeposit', { body: { network: 'BSC', txHash: `0x${'a'.repeat(64)}` } });
    await vi.advanceTimersByTimeAsync(999);
    expect(navigate).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(navigate).toHaveBeenCalledExactlyOnceWith('/assets');
  });

  it('also follows a redirect on an error answer', async () => {
    reply({ code: 1204, msg: '请先设置支付密码', data: null, redirect: '/my/password' });
    await run('userWithdrawInfo');
    await vi.advanceTimersByTimeAsync(1000);
    expect(navigate).toHaveBeenCalledWith('/my/password');
  });

  it('does not navigate when display is off, or to another site', async () => {
    for (const body of [
      { code: 1, data: null, redirect: '/assets', show: 0 },
      { code: 1, data: null, redirect: '//evil.example' },
      { code: 1, data: null, redirect: 'https://evil.example/' },
    ]) {
      reply(body);
      await run('userIndex');
    }
    reply({ code: 1, data: null, redirect: '/assets' });
    await run('userIndex', undefined, { show: false });
    await vi.advanceTimersByTimeAsync(5000);
    expect(navigate).not.toHaveBeenCalled();
  });
});

// ---- HTTP statuses ----

describe('HTTP statuses', () => {
  const envelope = { code: 1000, msg: '服务端说明', data: null };

  describe.each([
    [403, '访问被拒绝'],
    [404, '接口不存在'],
    [500, '服务器内部错误'],
    [502, '服务暂时不可用'],
    [503, '服务暂时不可用'],
  ])('%i', (status, text) => {
    it.each([
      ['with an envelope', () => json(envelope, status)],
      ['without one', () => new Response('<html>oops</html>', { status, headers: { 'content-type': 'text/html' } })],
    ])('%s: toasts the status text first and throws it', async (_label, answer) => {
      serve(answer);
      const { error } = await run('userAccount');
      expect(error).toBeInstanceOf(ApiError);
      expect(error).toMatchObject({ kind: 'http', status, message: text });
      expect(toasts()).toEqual([['error', text]]);
      await vi.advanceTimersByTimeAsync(5000);
      expect(navigate).not.toHaveBeenCalled();
    });
  });

  it('another status shows the server message when the body is an envelope, else 服务器错误', async () => {
    reply({ code: 1009, msg: '系统维护中，请稍后再试', data: null }, 418);
    expect((await run('userAccount')).error).toMatchObject({ kind: 'http', status: 418, code: 1009, message: '系统维护中，请稍后再试' });
    serve(() => new Response('teapot', { status: 418 }));
    expect((await run('userAccount')).error).toMatchObject({ kind: 'http', status: 418, message: '服务器错误' });
    expect(toasts()).toEqual([
      ['error', '系统维护中，请稍后再试'],
      ['error', '服务器错误'],
    ]);
  });

  it('a 2xx answer that is not an envelope is a server error', async () => {
    serve(() => new Response('<!doctype html>', { status: 200, headers: { 'content-type': 'text/html' } }));
    expect((await run('userAccount')).error).toMatchObject({ kind: 'http', status: 200, message: '服务器错误' });
  });

  it.each([
    ['with an envelope', () => json({ code: 101, msg: '请先登录', data: null }, 401)],
    ['without one', () => new Response('', { status: 401 })],
  ])('401 %s: 未授权访问, storage wiped, /login after 1 s', async (_label, answer) => {
    store.set(tokenAtom, 'tok');
    localStorage.setItem('user', '{}');
    localStorage.setItem(PREFERENCES_KEY, '{"theme":"dark","language":"zh"}');
    sessionStorage.setItem('draft', 'x');
    serve(answer);
    expect((await run('userIndex')).error).toMatchObject({ kind: 'http', status: 401, message: '未授权访问' });
    expect(toasts()).toEqual([['error', '未授权访问']]);
    expect(localStorage.getItem('token')).toBeNull();
    expect(localStorage.getItem('user')).toBeNull();
    expect(sessionStorage.length).toBe(0);
    expect(localStorage.getItem(PREFERENCES_KEY)).toBe('{"theme":"dark","language":"zh"}');
    await vi.advanceTimersByTimeAsync(999);
    expect(navigate).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(navigate).toHaveBeenCalledExactlyOnceWith('/login');
  });

  it('401 on a screen-handled call still toasts and ends the session (the screen is about to be left)', async () => {
    localStorage.setItem('user', '{}');
    serve(() => new Response('', { status: 401 }));
    expect((await run('userBotList')).error).toMatchObject({ kind: 'http', status: 401 });
    expect(toasts()).toEqual([['error', '未授权访问']]);
    expect(localStorage.getItem('user')).toBeNull();
    await vi.advanceTimersByTimeAsync(1000);
    expect(navigate).toHaveBeenCalledWith('/login');
  });
});

// ---- network ----

describe('network failures', () => {
  it('time out after 15 s: 请求超时，请稍后重试', async () => {
    serve(() => new Promise<Response>(() => {}));
    let outcome: Outcome | undefined;
    void run('userIndex').then((o) => (outcome = o));
    await vi.advanceTimersByTimeAsync(14_999);
    expect(outcome).toBeUndefined();
    await vi.advanceTimersByTimeAsync(1);
    expect(outcome?.error).toBeInstanceOf(ApiError);
    expect(outcome?.error).toMatchObject({ kind: 'network', message: '请求超时，请稍后重试' });
    expect(toasts()).toEqual([['error', '请求超时，请稍后重试']]);
  });

  it('offline (navigator.onLine false): 网络连接失败，请检查网络', async () => {
    vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
    // Not a TypeError: the offline state alone decides.
    serve(() => Promise.reject(new Error('unknown failure')));
    expect((await run('userIndex')).error).toMatchObject({ kind: 'network', message: '网络连接失败，请检查网络' });
    expect(toasts()).toEqual([['error', '网络连接失败，请检查网络']]);
  });

  it('a fetch failure (TypeError) while online is the same', async () => {
    serve(() => Promise.reject(new TypeError('Failed to fetch')));
    expect((await run('userIndex')).error).toMatchObject({ kind: 'network', message: '网络连接失败，请检查网络' });
    serve(() => Promise.reject(new TypeError('some runtime wording')));
    expect((await run('userIndex')).error).toMatchObject({ kind: 'network', message: '网络连接失败，请检查网络' });
  });

  it('any other failure: 网络错误，请稍后重试', async () => {
    serve(() => Promise.reject(new DOMException('blocked', 'SecurityError')));
    expect((await run('userIndex')).error).toMatchObject({ kind: 'network', message: '网络错误，请稍后重试' });
    expect(toasts()).toEqual([['error', '网络错误，请稍后重试']]);
  });

  it('show: false keeps them quiet', async () => {
    serve(() => Promise.reject(new TypeError('Failed to fetch')));
    expect((await run('userIndex', undefined, { show: false })).error).toMatchObject({ kind: 'network' });
    expect(toasts()).toEqual([]);
  });
});

// ---- screen-handled calls ----

describe('screen-handled calls (docs/product.md §7)', () => {
  it('are exactly the spec list plus the no-auto-error calls (and our 2FA code and bind calls)', () => {
    const flagged = (Object.keys(calls) as CallName[]).filter((n) => {
      const spec: CallRoute = calls[n];
      return spec.screen || spec.noAutoError;
    });
    expect(flagged.sort()).toEqual([...specScreenCalls, ...noAutoErrorCalls, ...ourScreenCalls].sort());
  });

  describe.each([...specScreenCalls, ...noAutoErrorCalls, ...ourScreenCalls])('%s', (name) => {
    it('toasts nothing and throws, for codes, HTTP statuses and network failures', async () => {
      reply({ code: 3101, msg: '策略不存在', data: null });
      expect((await run(name, sample[name] as never)).error).toMatchObject({ kind: 'code', code: 3101, message: '策略不存在' });
      reply({ code: 1000, msg: 'x', data: null }, 500);
      expect((await run(name, sample[name] as never)).error).toMatchObject({ kind: 'http', status: 500, message: '服务器内部错误' });
      serve(() => Promise.reject(new TypeError('Failed to fetch')));
      expect((await run(name, sample[name] as never)).error).toMatchObject({ kind: 'network', message: '网络连接失败，请检查网络' });
      expect(toasts()).toEqual([]);
    });
  });
});

// ---- language ----

describe('in English', () => {
  it('client texts follow the language, as main.tsx wires it', async () => {
    const stop = applyPreferences(store, activateLanguage);
    store.set(setLanguageAtom, 'en');
    await activateLanguage('en'); // the switch loads the en catalog first
    reply({ code: 1, data: null });
    await run('userSetInfo', { body: { field: 'nickname', value: 'n' } });
    expect(lastRequest().headers.get('lang')).toBe('en');
    expect(toasts()).toEqual([['success', 'Success']]);
    const lastToast = () => toasts().at(-1)?.[1];
    reply({ code: 3101, data: null });
    expect((await run('userBotCount')).error?.message).toBe('The operation failed, please try again later');
    expect(lastToast()).toBe('The operation failed, please try again later');
    reply({ code: 1, data: null }, 403);
    expect((await run('userAccount')).error?.message).toBe('Access denied');
    expect(lastToast()).toBe('Access denied');
    serve(() => new Response('', { status: 418 }));
    expect((await run('userAccount')).error?.message).toBe('Server error');
    serve(() => Promise.reject(new TypeError('Failed to fetch')));
    expect((await run('userAccount')).error?.message).toBe('Network connection failed, please check your network');
    expect(lastToast()).toBe('Network connection failed, please check your network');
    serve(() => new Promise<Response>(() => {}));
    const pending = run('userAccount');
    await vi.advanceTimersByTimeAsync(15_000);
    expect((await pending).error?.message).toBe('Request timed out, please try again later');
    expect(lastToast()).toBe('Request timed out, please try again later');
    stop();
  });
});

describe('errorText', () => {
  it('gives the ApiError message, or the generic failure text', () => {
    expect(errorText(new ApiError({ kind: 'code', code: 9, message: '具体原因' }))).toBe('具体原因');
    expect(errorText(new Error('internal detail'))).toBe('操作失败，请稍后重试');
  });
});
