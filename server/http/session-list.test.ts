import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Code } from '../../contract/codes.ts';
import type { SessionList } from '../../contract/account.ts';
import { dbKinds, newAccount, openTestApp, PASSWORD, registerPayload, type TestApp } from '../testing/test-support.ts';

type Reply<T = unknown> = { code: number; msg: string; data: T };
const PHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) Safari/604.1';
const LAPTOP = 'Mozilla/5.0 (X11; Linux x86_64) Chrome/140.0';

/**
 * The security screen's list of signed-in devices: each of the trader's live sessions with its device,
 * place and last use; signing one or all others out with only a fresh login of the asking device;
 * nothing of another trader's sessions can be seen or ended.
 */
describe.each(dbKinds)('the trader’s sessions (%s)', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await openTestApp(kind);
  });
  afterAll(() => t?.close());

  const send = <T = unknown>(token: string, method: 'GET' | 'POST', url: string, payload?: object): Promise<Reply<T>> =>
    t.app.inject({ method, url, ...(payload ? { payload } : {}), headers: { authorization: `Bearer ${token}`, lang: 'en' } }).then((r) => r.json() as Reply<T>);
  const list = (token: string, query = '') => send<SessionList>(token, 'GET', `/api/user/sessions${query}`);
  const trader = async () => {
    const account = newAccount();
    const reg = await t.app.inject({ method: 'POST', url: '/api/login/register', payload: await registerPayload(t.app, { account }), headers: { 'user-agent': PHONE }, remoteAddress: '10.60.0.1' });
    return { account, token: reg.json().data.token as string };
  };
  const login = async (account: string, terminal: number, agent: string, ip: string) => {
    const r = await t.app.inject({ method: 'POST', url: '/api/login/account', payload: { terminal, account, password: PASSWORD }, headers: { 'user-agent': agent }, remoteAddress: ip });
    expect(r.json().code).toBe(1);
    return r.json().data.token as string;
  };
  /** The login of `token`'s session is `minutes` old. */
  const age = (token: string, minutes: number) =>
    sql`update sessions set created_at = now() - make_interval(mins => ${minutes}) where token_hash = encode(sha256(convert_to(${token}, 'UTF8')), 'hex')`.execute(t.db);

  it('lists each live session with its device, place and last use, this device first; pages', async () => {
    const { account, token } = await trader();
    const laptop = await login(account, 1, LAPTOP, '10.60.0.2'); // the registering browser stays signed in beside it
    const phone = await login(account, 2, PHONE, '10.60.0.3');
    const seen = await list(laptop);
    expect(seen.code).toBe(1);
    expect(seen.data).toMatchObject({ total: 3, page: 1, freshUntil: expect.any(String) });
    expect(seen.data.list[0]).toEqual({ id: expect.any(String), terminal: 1, agent: LAPTOP, ip: '10.60.0.2', createdAt: expect.any(String), lastSeenAt: expect.any(String), current: true });
    expect(
      seen.data.list
        .slice(1)
        .map((s) => [s.terminal, s.agent, s.current])
        .sort(),
    ).toEqual([
      [1, PHONE, false],
      [2, PHONE, false],
    ]);
    expect(Date.parse(seen.data.freshUntil!) - Date.now()).toBeGreaterThan(9 * 60_000);
    const second = await list(phone, '?page=2&page_size=2');
    expect(second.data).toMatchObject({ total: 3, page: 2, page_size: 2 });
    expect(second.data.list.map((s) => s.current)).toEqual([false]);
    expect((await send(token, 'GET', '/api/user/sessions')).code).toBe(1);
  });

  it('signs one other device out after a fresh login: its next call is ended (2003)', async () => {
    const { account, token } = await trader();
    const phone = await login(account, 2, PHONE, '10.61.0.2');
    const phoneId = (await list(token)).data.list.find((s) => !s.current)!.id;
    expect(await send(token, 'POST', '/api/user/sessions/end', { id: phoneId })).toEqual({ code: 1, msg: expect.any(String), data: null });
    expect((await send(phone, 'GET', '/api/user/account')).code).toBe(Code.SessionRevoked);
    expect((await list(token)).data.total).toBe(1);
    // Again: it is no live session any more.
    expect((await send(token, 'POST', '/api/user/sessions/end', { id: phoneId })).code).toBe(Code.SessionNotFound);
  });

  it('asks for a fresh login to sign others out, never a password or a code; everywhere else ends them all', async () => {
    const { account, token } = await trader();
    const phone = await login(account, 2, PHONE, '10.62.0.2');
    const tablet = await login(account, 3, PHONE, '10.62.0.3');
    await age(token, 11);
    expect((await list(token)).data.freshUntil).toBeNull();
    const stale = await send(token, 'POST', '/api/user/sessions/endOthers', {});
    expect(stale).toEqual({
      code: Code.LoginAgainRequired,
      msg: 'To protect your account, signing other devices out needs a fresh login on this one: log in again and do it within 10 minutes',
      data: null,
    });
    const phoneId = (await list(token)).data.list.find((s) => s.ip === '10.62.0.2')!.id;
    expect((await send(token, 'POST', '/api/user/sessions/end', { id: phoneId })).code).toBe(Code.LoginAgainRequired);
    expect((await send(phone, 'GET', '/api/user/account')).code).toBe(1);
    // A fresh login of the same device (terminal 1) can: the others end, the stale session among them.
    const fresh = await login(account, 1, LAPTOP, '10.62.0.1');
    expect((await send(fresh, 'POST', '/api/user/sessions/endOthers', {})).data).toEqual({ ended: 3 });
    for (const other of [phone, tablet, token]) expect((await send(other, 'GET', '/api/user/account')).code).toBe(Code.SessionRevoked);
    expect((await list(fresh)).data.list.map((s) => s.current)).toEqual([true]);
    // Its own session: a logout, fresh or not.
    await age(fresh, 30);
    const ownId = (await list(fresh)).data.list[0]!.id;
    expect((await send(fresh, 'POST', '/api/user/sessions/end', { id: ownId })).code).toBe(1);
    expect((await send(fresh, 'GET', '/api/user/account')).code).toBe(Code.SessionRevoked);
  });

  it('keeps each trader’s sessions to themselves: Bob can neither list nor end Alice’s, whose ids answer like unknown ones', async () => {
    const alice = await trader();
    const alicePhone = await login(alice.account, 2, PHONE, '10.63.0.2');
    const bob = await trader();
    const aliceIds = (await list(alice.token)).data.list.map((s) => s.id);
    expect(aliceIds).toHaveLength(2);
    const bobs = await list(bob.token);
    expect(bobs.data.total).toBe(1);
    expect(bobs.data.list.map((s) => s.id)).not.toContain(aliceIds[1]);
    const unknown = await send(bob.token, 'POST', '/api/user/sessions/end', { id: '999999999' });
    expect(unknown).toEqual({ code: Code.SessionNotFound, msg: 'That signed-in device does not exist or has already signed out', data: null });
    for (const id of aliceIds) expect(await send(bob.token, 'POST', '/api/user/sessions/end', { id })).toEqual(unknown);
    expect((await send(bob.token, 'POST', '/api/user/sessions/endOthers', {})).data).toEqual({ ended: 0 });
    expect((await send(alice.token, 'GET', '/api/user/account')).code).toBe(1);
    expect((await send(alicePhone, 'GET', '/api/user/account')).code).toBe(1);
    expect((await list(alice.token)).data.total).toBe(2);
    // A malformed id answers the same, never a 500.
    expect((await send(bob.token, 'POST', '/api/user/sessions/end', { id: 'x' })).code).toBe(Code.SessionNotFound);
    expect((await send(bob.token, 'GET', '/api/user/sessions?page=0')).code).toBe(Code.ValidationError);
  });
});
