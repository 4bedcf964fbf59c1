import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Code } from '../../contract/codes.ts';
import { dbKinds, openTestApp, registerUser, type TestApp } from '../testing/test-support.ts';

/**
 * Traders setting each other as referrer at the same moment, through two server processes (two apps on
 * one database: on PostgreSQL each change runs on its own connection). Each used to lock its own row
 * and then wait for the other's (the foreign key of the new referrer): `deadlock detected`, HTTP 500.
 * Now one change goes through and the one that would close a cycle answers 1106.
 */
describe.each(dbKinds)('referrer changes at the same moment (%s)', (kind) => {
  let t: TestApp;
  let other: FastifyInstance;
  beforeAll(async () => {
    t = await openTestApp(kind);
    other = await t.another();
  });
  afterAll(() => t.close());

  const setReferrer = (app: FastifyInstance, token: string, sn: string) =>
    app.inject({ method: 'POST', url: '/api/user/setInfo', payload: { field: 'referrer', value: sn }, headers: { authorization: `Bearer ${token}`, lang: 'en' } });
  const referrerOf = async (sn: string) => {
    const row = await t.db.selectFrom('users').select('referrer_id').where('sn', '=', sn).executeTakeFirstOrThrow();
    if (!row.referrer_id) return null;
    return (await t.db.selectFrom('users').select('sn').where('id', '=', String(row.referrer_id)).executeTakeFirstOrThrow()).sn;
  };

  it('lets one of two traders naming each other through, and refuses the other with 1106, never a 500', async () => {
    for (let round = 0; round < 8; round++) {
      const a = await registerUser(t.app);
      const b = await registerUser(t.app);
      const answers = await Promise.all([setReferrer(t.app, a.token, b.sn), setReferrer(other, b.token, a.sn)]);
      expect(answers.map((r) => r.statusCode)).toEqual([200, 200]);
      expect(answers.map((r) => r.json().code).sort()).toEqual([Code.Success, Code.InvalidReferralCode].sort());
      const refs = [await referrerOf(a.sn), await referrerOf(b.sn)];
      expect(refs.filter(Boolean)).toHaveLength(1);
    }
  });

  it('never closes a cycle of three changed at once', async () => {
    for (let round = 0; round < 4; round++) {
      const [a, b, c] = [await registerUser(t.app), await registerUser(t.app), await registerUser(t.app)];
      const answers = await Promise.all([setReferrer(t.app, a.token, b.sn), setReferrer(other, b.token, c.sn), setReferrer(t.app, c.token, a.sn)]);
      expect(answers.map((r) => r.statusCode)).toEqual([200, 200, 200]);
      const codes = answers.map((r) => r.json().code);
      expect(codes.filter((x) => x === Code.Success)).toHaveLength(2);
      expect(codes.filter((x) => x === Code.InvalidReferralCode)).toHaveLength(1);
    }
  });
});
