import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ReactNode } from 'react';
import { act, renderHook, waitFor } from '@testing-library/react';
import { QueryClientProvider, useQuery } from '@tanstack/react-query';
import { calls, type CallName } from '../../contract/calls.ts';
import { Code } from '../../contract/codes.ts';
import { store } from '../lib/store.ts';
import { ApiError } from '../lib/http.ts';
import { tokenAtom } from '../state/session.ts';
import { call, failed, queryClient, write, writeChanges } from './query.ts';

/** The path of each request the app made, answered by `answer` (the server's envelope). */
let asked: string[];
function serve(answer: (path: string) => unknown) {
  vi.stubGlobal(
    'fetch',
    vi.fn(async (req: Request) => {
      const path = new URL(req.url).pathname;
      asked.push(path);
      return new Response(JSON.stringify(answer(path)), { status: 200, headers: { 'content-type': 'application/json' } });
    }),
  );
}
const ok = (data: unknown) => ({ code: Code.Success, msg: '', data });
const list = { list: [], total: 0 };
const count = (path: string) => asked.filter((p) => p === path).length;
const wrapper = ({ children }: { children: ReactNode }) => <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>;

beforeEach(() => {
  asked = [];
  queryClient.clear();
  store.set(tokenAtom, 'token-a');
});
afterEach(() => {
  vi.unstubAllGlobals();
  queryClient.clear();
});

describe('server state through TanStack Query', () => {
  it('asks once for the same call and input, however many screens want it, and answers the next screen from the cache', async () => {
    serve(() => ok(list));
    const first = renderHook(() => [useQuery(call('userBotList', { page: '1' })), useQuery(call('userBotList', { page: '1' }))], { wrapper });
    await waitFor(() => expect(first.result.current[0]!.data).toEqual(list));
    expect(count('/api/user/botList')).toBe(1);
    first.unmount();
    // Going back: the answer is there at once, before any request.
    const back = renderHook(() => useQuery(call('userBotList', { page: '1' })), { wrapper });
    expect(back.result.current.data).toEqual(list);
    back.unmount();
  });

  it('a write refreshes the queries it changes, and only those', async () => {
    serve((path) => (path === '/api/market/price' ? ok([]) : path === '/api/user/botCount' ? ok({ total: 0, running: 0, paused: 0, stopped: 0 }) : ok(list)));
    const screen = renderHook(() => [useQuery(call('userBotList', {})), useQuery(call('userBotCount', {})), useQuery(call('marketPrice', { symbols: 'BTC/USDT' }))], { wrapper });
    await waitFor(() => expect(screen.result.current.every((q) => q.isSuccess)).toBe(true));
    const before = { bots: count('/api/user/botList'), counts: count('/api/user/botCount'), prices: count('/api/market/price') };
    await act(() => write('userBotOperation', { id: '1', action: 'pause' }));
    await waitFor(() => expect(count('/api/user/botList')).toBe(before.bots + 1));
    expect(count('/api/user/botCount')).toBe(before.counts + 1);
    expect(count('/api/market/price')).toBe(before.prices);
    screen.unmount();
  });

  it("another session never sees this one's answers: a new token empties the cache", async () => {
    serve(() => ok(list));
    await queryClient.fetchQuery(call('userBotList', {}));
    expect(queryClient.getQueryData(call('userBotList', {}).queryKey)).toEqual(list);
    store.set(tokenAtom, 'token-b');
    expect(queryClient.getQueryData(call('userBotList', {}).queryKey)).toBeUndefined();
    expect(queryClient.getQueryCache().getAll()).toEqual([]);
  });

  it('a screen shows no failure for a session that ended (the client says it and goes to /login), and does for anything else', () => {
    const ended = new ApiError({ kind: 'code', code: Code.TokenExpired, message: 'expired' });
    const refused = new ApiError({ kind: 'code', code: Code.Success + 3000, message: 'refused' });
    const unauthorized = new ApiError({ kind: 'http', status: 401, message: '401' });
    expect(failed({ isError: true, error: ended })).toBe(false);
    expect(failed({ isError: true, error: unauthorized })).toBe(false);
    expect(failed({ isError: true, error: refused })).toBe(true);
    expect(failed({ isError: false, error: null })).toBe(false);
  });

  it('each write refreshes reads only, and every call that changes something is a write', () => {
    const reads = (Object.keys(calls) as CallName[]).filter((n) => calls[n].method === 'GET' && !(n in writeChanges));
    for (const [name, changes] of Object.entries(writeChanges)) {
      expect(changes!.length, name).toBeGreaterThan(0);
      for (const c of changes!) expect(reads, `${name} -> ${c}`).toContain(c);
    }
    // Every POST/PUT/DELETE of a logged-in screen is in the table (the public login calls and the logout are not screens' writes).
    const notScreens = ['loginAccount', 'loginRegister', 'loginVerify', 'loginLogout', 'strategyBacktest', 'strategyAiSearch'];
    const writes = (Object.keys(calls) as CallName[]).filter((n) => calls[n].method !== 'GET' && !notScreens.includes(n));
    for (const w of writes) expect(writeChanges, w).toHaveProperty(w);
  });
});
