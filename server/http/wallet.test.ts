import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { createSiweMessage } from 'viem/siwe';
import { Code } from '../../contract/codes.ts';
import { issueNonce } from '../services/wallet.ts';
import { dbKinds, openTestApp, registerPayload, type Answer, type DataAt, type TestApp } from '../testing/test-support.ts';

describe.each(dbKinds)('wallet sign-in on chain 56 (%s)', (kind) => {
  let t: TestApp;
  const call = <M extends 'GET' | 'POST', U extends string>(method: M, url: U, payload?: object, headers: Record<string, string> = {}) =>
    t.app.inject({ method, url, ...(payload ? { payload } : {}), headers: { lang: 'en', ...headers } }).then((r) => r.json() as Answer<DataAt<M, U>>);
  const nonceFor = (address: string) => call('GET', `/api/login/nonce?address=${address}`);
  /** A real wallet: a private key signs the server's message (EIP-191 personal_sign, as wallets do). */
  const wallet = () => privateKeyToAccount(generatePrivateKey());
  const signIn = async (w = wallet(), extra: object = {}) => {
    const { data } = await nonceFor(w.address);
    const signature = await w.signMessage({ message: data.message });
    return { w, data, signature, answer: await call('POST', '/api/login/verify', { address: w.address, signature, terminal: 4, ...extra }) };
  };

  beforeAll(async () => {
    t = await openTestApp(kind);
  });
  afterAll(async () => t.close());

  it('issues the exact EIP-4361 message: this site, chain 56, a 128-bit single-use nonce, 5 minutes', async () => {
    const w = wallet();
    const before = Date.now();
    const { code, data } = await nonceFor(w.address.toLowerCase());
    expect(code).toBe(1);
    expect(data.nonce).toMatch(/^[0-9a-f]{32}$/);
    const lines = data.message.split('\n');
    expect(lines[0]).toBe('localhost wants you to sign in with your Ethereum account:');
    expect(lines[1]).toBe(w.address); // checksummed, whatever case was asked
    expect(data.message).toContain('\nURI: http://localhost\n');
    expect(data.message).toContain('\nChain ID: 56\n');
    expect(data.message).toContain(`\nNonce: ${data.nonce}\n`);
    const expires = Date.parse(data.expiresAt);
    expect(expires - before).toBeGreaterThan(4.9 * 60_000);
    expect(expires - before).toBeLessThanOrEqual(5 * 60_000 + 1000);
    expect(data.message).toContain(`Expiration Time: ${data.expiresAt}`);
    expect((await nonceFor(w.address)).data.nonce).not.toBe(data.nonce);
    expect((await call('GET', '/api/login/nonce?address=0x1234')).code).toBe(Code.InvalidAddress);
  });

  it('logs in with a real signature: the first login creates the account, the next finds it', async () => {
    const first = await signIn();
    expect(first.answer.code).toBe(1);
    expect(first.answer.data).toMatchObject({ address: first.w.address, account: '', referral: '' });
    expect(first.answer.data.token).toMatch(/^[A-Za-z0-9_-]{40,}$/);
    const profile = await call('GET', '/api/auth/profile', undefined, { authorization: `Bearer ${first.answer.data.token}` });
    expect(profile.data).toMatchObject({ sn: first.answer.data.sn, address: first.w.address });
    const again = await signIn(first.w);
    expect(again.answer.code).toBe(1);
    expect(again.answer.data.sn).toBe(first.answer.data.sn);
  });

  it('names only the configured site: a forged Host or Origin gets no message and no session', async () => {
    const w = wallet();
    // The phishing relay of the attack: the nonce asked for evil.example.
    const forgedHost = await call('GET', `/api/login/nonce?address=${w.address}`, undefined, { host: 'evil.example' });
    expect(forgedHost).toMatchObject({ code: Code.WalletDomainMismatch, data: null });
    const forgedOrigin = await call('GET', `/api/login/nonce?address=${w.address}`, undefined, { origin: 'http://evil.example' });
    expect(forgedOrigin).toMatchObject({ code: Code.WalletDomainMismatch, data: null });
    // A message written for evil.example, signed by the victim and sent with that Host: refused too.
    const { data } = await nonceFor(w.address);
    const evil = createSiweMessage({
      domain: 'evil.example',
      address: w.address,
      uri: 'http://evil.example',
      version: '1',
      chainId: 56,
      nonce: data.nonce,
      issuedAt: new Date(),
      expirationTime: new Date(Date.now() + 60_000),
    });
    const signature = await w.signMessage({ message: evil });
    expect((await call('POST', '/api/login/verify', { address: w.address, signature, terminal: 4, message: evil }, { host: 'evil.example' })).code).toBe(Code.WalletDomainMismatch);
    expect((await call('POST', '/api/login/verify', { address: w.address, signature, terminal: 4, message: evil })).code).toBe(Code.WalletDomainMismatch);
    expect((await call('POST', '/api/login/verify', { address: w.address, signature: await w.signMessage({ message: data.message }), terminal: 4 }, { origin: 'http://evil.example' })).code).toBe(
      Code.WalletDomainMismatch,
    );
    // The configured site with its own Origin still works, and the nonce was not used up by the refusals.
    const ok = await call('POST', '/api/login/verify', { address: w.address, signature: await w.signMessage({ message: data.message }), terminal: 4 }, { origin: 'http://localhost' });
    expect(ok.code).toBe(1);
  });

  it('refuses a replayed nonce, another chain, another site, another signer and an expired request', async () => {
    const used = await signIn();
    expect(used.answer.code).toBe(1);
    const replay = await call('POST', '/api/login/verify', { address: used.w.address, signature: used.signature, terminal: 4, message: used.data.message });
    expect([replay.code, replay.msg]).toEqual([Code.WalletNonceInvalid, expect.stringMatching(/expired or was already used/)]);

    const w = wallet();
    const { data } = await nonceFor(w.address);
    const forged = (fields: object) => createSiweMessage({ domain: 'localhost', address: w.address, uri: 'http://localhost', version: '1', chainId: 56, nonce: data.nonce, ...fields });
    for (const [fields, code] of [
      [{ chainId: 1 }, Code.WalletNetworkUnsupported],
      [{ domain: 'evil.example', uri: 'https://evil.example' }, Code.WalletDomainMismatch],
      [{}, Code.WalletSignatureFailed], // the right fields, but not the message that was issued
    ] as const) {
      const message = forged(fields);
      const r = await call('POST', '/api/login/verify', { address: w.address, signature: await w.signMessage({ message }), terminal: 4, message });
      expect(r.code).toBe(code);
    }
    const zh = await call(
      'POST',
      '/api/login/verify',
      { address: w.address, signature: await w.signMessage({ message: forged({ chainId: 1 }) }), terminal: 4, message: forged({ chainId: 1 }) },
      { lang: 'zh' },
    );
    expect(zh.msg).toBe('不支持当前网络，请切换到 BNB Smart Chain');
    const stranger = await wallet().signMessage({ message: data.message });
    expect((await call('POST', '/api/login/verify', { address: w.address, signature: stranger, terminal: 4 })).code).toBe(Code.WalletSignatureFailed);
    expect((await call('POST', '/api/login/verify', { address: w.address, signature: '0xzz', terminal: 4 })).code).toBe(Code.WalletSignatureFailed);
    // None of those refusals used the nonce up: the real signature still works, once.
    const good = await w.signMessage({ message: data.message });
    expect((await call('POST', '/api/login/verify', { address: w.address, signature: good, terminal: 4 })).code).toBe(1);

    const late = wallet();
    const old = await issueNonce(t.db, late.address, { domain: 'localhost', uri: 'http://localhost' }, new Date(Date.now() - 5 * 60_000 - 1000));
    const expired = await call('POST', '/api/login/verify', { address: late.address, signature: await late.signMessage({ message: old.message }), terminal: 4 });
    expect(expired.code).toBe(Code.WalletNonceInvalid);
  });

  it('keeps the referrer of a first wallet login, and refuses an unknown one', async () => {
    const referrer = await signIn();
    const invited = await signIn(wallet(), { referrer: referrer.answer.data.sn });
    expect(invited.answer.data.referral).toBe(referrer.answer.data.sn);
    expect((await signIn(wallet(), { referrer: '99999999' })).answer.code).toBe(Code.InvalidReferralCode);
  });

  it('binds a wallet to an account user once; a wallet belongs to one account', async () => {
    const register = async () => {
      const r = await call('POST', '/api/login/register', await registerPayload(t.app));
      return { authorization: `Bearer ${r.data.token}`, sn: r.data.sn as string };
    };
    const me = await register();
    const w = wallet();
    const bind = async (who: Record<string, string>, signer = w) => {
      const { data } = await nonceFor(signer.address);
      return call('POST', '/api/user/bind', { address: signer.address, signature: await signer.signMessage({ message: data.message }) }, who);
    };
    const bound = await bind(me);
    expect(bound.code).toBe(1);
    expect(bound.data).toMatchObject({ sn: me.sn, address: w.address });
    expect((await bind(me, wallet())).code).toBe(Code.WalletAlreadyBound);
    expect((await bind(await register())).code).toBe(Code.WalletInUse);
    // The bound wallet now logs into that account.
    expect((await signIn(w)).answer.data.sn).toBe(me.sn);
  });
});
