import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../db/connect.ts';
import type { ClientFactory } from '../exchanges/verify.ts';
import { bindKeys, readCredentials } from '../services/exchange-keys.ts';
import { dbKinds, openTestDb } from '../testing/test-support.ts';
import { rotateSecrets } from './rotate-key.ts';
import { Secret, TOTP } from 'otpauth';
import { defaultLimits } from '../config.ts';
import { LoginLimiter } from '../services/login-limiter.ts';
import { enableTwoFactor, requireSecondFactor, setupTwoFactor } from '../services/security/two-factor.ts';
import { SecretBox } from './secret-box.ts';

// Live exchanges verify keys with a private call: this one always answers.
const client: ClientFactory = async () => ({ fetchBalance: async () => ({}) });
const BINANCE = 2;
const OKX = 3;
const PAPER = 1;

describe.each(dbKinds)('key rotation (%s)', (kind) => {
  let db: Db;
  let drop: () => Promise<void>;
  const users: string[] = [];
  beforeAll(async () => {
    ({ db, drop } = await openTestDb(kind));
    for (const n of [1, 2]) {
      const sn = String(10_000_000 + Math.floor(Math.random() * 89_999_999));
      const row = await db
        .insertInto('users')
        .values({ sn, account: `rotate0${n}${sn}`, password_hash: null, payment_hash: null, nickname: 'n', email: '', mobile: '', address: null, avatar: '', referrer_id: null })
        .returning('id')
        .executeTakeFirstOrThrow();
      users.push(row.id);
    }
  });
  afterAll(() => drop());

  const sealedRows = async () => (await db.selectFrom('exchange_keys').select(['id', 'sealed']).orderBy('id').execute()).map((r) => `${r.id}:${r.sealed}`);

  it("re-seals both users' keys under the new key: the old one opens none of them, the new one gives the same keys", async () => {
    const oldBox = new SecretBox(randomBytes(32));
    const newBox = new SecretBox(randomBytes(32));
    const [alice, bob] = users as [string, string];
    const bound = [
      { user: alice, exchange: BINANCE, creds: { apiKey: 'aliceBinanceKey01', secretKey: 'aliceBinanceSecret01', passphrase: undefined } },
      { user: alice, exchange: PAPER, creds: { apiKey: 'alicepaper01', secretKey: 'alicepapersecret', passphrase: undefined } },
      { user: bob, exchange: OKX, creds: { apiKey: 'bobOkxKey0001', secretKey: 'bobOkxSecret0001', passphrase: 'bob pass' } },
    ];
    for (const b of bound) await bindKeys({ db, box: oldBox, client }, b.user, b.exchange, b.creds);
    const before = await sealedRows();

    expect(await rotateSecrets(db, oldBox, newBox)).toBe(3);

    const after = await sealedRows();
    expect(after.every((row, i) => row !== before[i])).toBe(true);
    for (const b of bound) {
      await expect(readCredentials({ db, box: oldBox }, b.user, b.exchange)).rejects.toThrow();
      expect(await readCredentials({ db, box: newBox }, b.user, b.exchange)).toEqual(b.creds);
    }
    // The owner is still bound in: Bob's row copied onto Alice's does not open as hers.
    const bobs = await db.selectFrom('exchange_keys').select('sealed').where('user_id', '=', bob).executeTakeFirstOrThrow();
    await db.updateTable('exchange_keys').set({ sealed: bobs.sealed }).where('user_id', '=', alice).where('exchange_id', '=', PAPER).execute();
    await expect(readCredentials({ db, box: newBox }, alice, PAPER)).rejects.toThrow();
    await db.deleteFrom('exchange_keys').execute();
  });

  it('re-seals the 2FA secrets too: a trader with 2FA passes it with the same app after the rotation, and a set-up under way completes', async () => {
    const oldBox = new SecretBox(randomBytes(32));
    const newBox = new SecretBox(randomBytes(32));
    const [alice, bob] = users as [string, string];
    const limiter = new LoginLimiter(db, defaultLimits);
    const deps = (box: SecretBox) => ({ db, box, limiter, lockMs: 0 });
    const code = (secret: string, at: number) => new TOTP({ secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30 }).generate({ timestamp: at });
    const now = Date.now();
    // Each code is a try of a session (security/session-tries.ts): one each, as a login would open.
    const sessionOf = async (userId: string) => {
      const row = await db
        .insertInto('sessions')
        .values({ user_id: userId, token_hash: randomBytes(32).toString('hex'), terminal: 1, expires_at: new Date(now + 3_600_000), revoked_at: null })
        .returning('id')
        .executeTakeFirstOrThrow();
      return { userId, sessionId: String(row.id) };
    };
    const [asAlice, asBob] = [await sessionOf(alice), await sessionOf(bob)];
    const ofAlice = await setupTwoFactor(deps(oldBox), alice);
    await enableTwoFactor(deps(oldBox), asAlice, code(ofAlice.secret, now), now);
    const ofBob = await setupTwoFactor(deps(oldBox), bob); // scanned, not confirmed yet

    expect(await rotateSecrets(db, oldBox, newBox)).toBe(2);

    await expect(requireSecondFactor(deps(oldBox), asAlice, code(ofAlice.secret, now + 30_000), now + 30_000)).rejects.toThrow();
    await requireSecondFactor(deps(newBox), asAlice, code(ofAlice.secret, now + 60_000), now + 60_000);
    expect((await enableTwoFactor(deps(newBox), asBob, code(ofBob.secret, now), now)).recoveryCodes).toHaveLength(8);
    await db.updateTable('users').set({ totp_sealed: null, totp_pending: null, totp_last_step: null, recovery_hashes: null }).execute();
  });

  it('changes nothing when one row does not open with the old key, and names it', async () => {
    const oldBox = new SecretBox(randomBytes(32));
    const [alice, bob] = users as [string, string];
    await bindKeys({ db, box: oldBox, client }, alice, BINANCE, { apiKey: 'aliceBinanceKey02', secretKey: 'aliceBinanceSecret02' });
    const broken = await bindKeys({ db, box: oldBox, client }, bob, BINANCE, { apiKey: 'bobBinanceKey002', secretKey: 'bobBinanceSecret02' });
    await bindKeys({ db, box: oldBox, client }, bob, PAPER, { apiKey: 'bobpaper0002', secretKey: 'bobpapersecret02' });
    const row = await db.selectFrom('exchange_keys').select('sealed').where('id', '=', broken.id).executeTakeFirstOrThrow();
    const raw = Buffer.from(row.sealed.slice(3), 'base64');
    raw[raw.length - 1]! ^= 1;
    await db
      .updateTable('exchange_keys')
      .set({ sealed: `v1:${raw.toString('base64')}` })
      .where('id', '=', broken.id)
      .execute();
    const before = await sealedRows();

    await expect(rotateSecrets(db, oldBox, new SecretBox(randomBytes(32)))).rejects.toThrow(`exchange_keys row ${broken.id} does not open with the old key: nothing was changed`);

    expect(await sealedRows()).toEqual(before);
    expect((await readCredentials({ db, box: oldBox }, alice, BINANCE)).apiKey).toBe('aliceBinanceKey02');
    await db.deleteFrom('exchange_keys').execute();
  });

  it('refuses while a bot has an order in flight on a real exchange, whose client order id is salted by the key', async () => {
    const oldBox = new SecretBox(randomBytes(32));
    const [alice] = users as [string];
    await bindKeys({ db, box: oldBox, client }, alice, BINANCE, { apiKey: 'aliceBinanceKey03', secretKey: 'aliceBinanceSecret03' });
    const bot = (pending: object | null, exchange: number) => ({
      user_id: alice,
      exchange_id: exchange,
      symbol: 'BTC/USDT',
      type: 'martin',
      name: 'b',
      status: 'running' as const,
      params: JSON.stringify({}),
      state: JSON.stringify({ pending }),
    });
    // In flight on Paper (no salt) or settled on Binance: no obstacle.
    await db
      .insertInto('bots')
      .values([bot({ id: '1-1-1', reason: 'first' }, PAPER), bot(null, BINANCE)])
      .execute();
    const current = new SecretBox(randomBytes(32));
    expect(await rotateSecrets(db, oldBox, current)).toBe(1);

    const live = await db
      .insertInto('bots')
      .values(bot({ id: '9-1-1', reason: 'first' }, BINANCE))
      .returning('id')
      .executeTakeFirstOrThrow();
    const before = await sealedRows();
    await expect(rotateSecrets(db, current, new SecretBox(randomBytes(32)))).rejects.toThrow(`bots ${live.id} have an order in flight`);
    expect(await sealedRows()).toEqual(before);
  });
});
