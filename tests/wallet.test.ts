import { afterEach, beforeEach, describe, expect, inject, it } from 'vitest';
import type { Page } from 'playwright-core';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { createSiweMessage } from 'viem/siwe';
import { openPhone, type Phone } from './support/browser.ts';
import { injectWallet } from './support/wallet.ts';
import { register, storeSession } from './support/session.ts';

const baseURL = inject('baseURL');

const stored = (page: Page) => page.evaluate(() => ({ token: localStorage.getItem('token'), user: JSON.parse(localStorage.getItem('user') ?? 'null') as Record<string, unknown> | null }));

describe('wallet login in a wallet browser (chain 56)', () => {
  let phone: Phone;
  let page: Page;
  beforeEach(async () => {
    phone = await openPhone(baseURL);
    page = phone.page;
  });
  afterEach(async () => phone?.close());

  it('offers no wallet login where there is no wallet', async () => {
    await page.goto('/login');
    await page.locator('input[name="account"]').waitFor();
    await page.waitForTimeout(400); // longer than the EIP-6963 wait
    expect(await page.getByTestId('wallet-login').count()).toBe(0);
  });

  it("switches to BNB Smart Chain, signs the server's message and is logged in, in well under a second", async () => {
    const account = privateKeyToAccount(generatePrivateKey());
    const calls = await injectWallet(page, account, { chainId: 1 });
    await page.goto('/login');
    await page.getByTestId('wallet-login').waitFor();
    const started = Date.now();
    await page.getByTestId('wallet-login').click();
    await page.waitForURL((u) => u.pathname === '/');
    const ms = Date.now() - started;
    console.log(`wallet login, click to home: ${ms} ms`);
    expect(ms).toBeLessThan(3000);
    expect(calls).toContain('wallet_switchEthereumChain');
    expect(calls).toContain('personal_sign');
    const { token, user } = await stored(page);
    expect(token).toMatch(/^"[A-Za-z0-9_-]{40,}"$/);
    expect(user).toMatchObject({ address: account.address, password: false, account: '' });
    // The profile's 钱包地址 label stays on one line beside the 42-character address, which wraps instead.
    await page.goto('/my/profile');
    const label = page.getByText('钱包地址', { exact: true });
    await label.waitFor();
    const box = (await label.boundingBox())!;
    expect(box.height).toBeLessThan(40);
    expect(box.width).toBeGreaterThan(50);
  });

  it("shows the wallet's refusals: a cancelled signature, a network it will not switch to", async () => {
    const account = privateKeyToAccount(generatePrivateKey());
    await injectWallet(page, account, { cancelSign: true });
    await page.goto('/login');
    await page.getByTestId('wallet-login').click();
    await expect.poll(() => page.getByTestId('wallet-failure').innerText()).toBe('用户已取消');
    expect((await stored(page)).token).toBeNull();

    const other = await openPhone(baseURL);
    try {
      await injectWallet(other.page, privateKeyToAccount(generatePrivateKey()), { chainId: 1, refuseSwitch: true });
      await other.page.goto('/login');
      await other.page.getByTestId('wallet-login').click();
      await expect.poll(() => other.page.getByTestId('wallet-failure').innerText()).toBe('不支持当前网络，请切换到 BNB Smart Chain');
    } finally {
      await other.close();
    }
  });

  it('refuses a replayed signature and a message for another site or chain, with their messages', async () => {
    const account = privateKeyToAccount(generatePrivateKey());
    const post = async (body: object) => {
      const r = await fetch(`${baseURL}/api/login/verify`, { method: 'POST', headers: { 'content-type': 'application/json', lang: 'zh' }, body: JSON.stringify(body) });
      return (await r.json()) as { code: number; msg: string };
    };
    const nonce = async () => ((await (await fetch(`${baseURL}/api/login/nonce?address=${account.address}`)).json()) as { data: { nonce: string; message: string } }).data;
    const first = await nonce();
    const signature = await account.signMessage({ message: first.message });
    expect((await post({ address: account.address, signature, terminal: 4 })).code).toBe(1);
    expect(await post({ address: account.address, signature, terminal: 4, message: first.message })).toMatchObject({ code: 2110, msg: '签名请求已过期或已使用，请重新签名' });
    const host = new URL(baseURL).host;
    const next = await nonce();
    const forged = (fields: object) => createSiweMessage({ domain: host, address: account.address, uri: baseURL, version: '1', chainId: 56, nonce: next.nonce, ...fields });
    const wrongSite = forged({ domain: 'evil.example', uri: 'https://evil.example' });
    expect(await post({ address: account.address, signature: await account.signMessage({ message: wrongSite }), terminal: 4, message: wrongSite })).toMatchObject({
      code: 2109,
      msg: '签名消息不是本站发出的，请在本站重新签名',
    });
    const wrongChain = forged({ chainId: 1 });
    expect(await post({ address: account.address, signature: await account.signMessage({ message: wrongChain }), terminal: 4, message: wrongChain })).toMatchObject({
      code: 2107,
      msg: '不支持当前网络，请切换到 BNB Smart Chain',
    });
  });

  it('binds a wallet to an account user by signature, then that wallet logs into the account; email and mobile with their checks', async () => {
    const account = privateKeyToAccount(generatePrivateKey());
    await injectWallet(page, account);
    const data = await register(baseURL);
    const name = data.account!;
    await storeSession(page, data);
    await page.goto('/my/bind/wallet');
    await page.getByTestId('wallet-bind').click();
    await expect.poll(() => page.getByTestId('wallet-bound').innerText()).toContain(account.address);
    expect(((await stored(page)).user as { address: string }).address).toBe(account.address);

    await page.goto('/my/bind/email');
    await page.locator('input[name="email"]').fill('not-an-email');
    await page.getByRole('button', { name: '保存' }).click();
    await expect.poll(() => page.getByRole('alert').first().innerText()).toMatch(/邮箱/);
    await page.locator('input[name="email"]').fill(`${name}@example.com`);
    await page.getByRole('button', { name: '保存' }).click();
    await page.getByTestId('bind-saved').waitFor();

    // Logged out, the bound wallet logs into this very account.
    await page.evaluate(() => localStorage.removeItem('token'));
    await page.goto('/login');
    await page.getByTestId('wallet-login').click();
    await page.waitForURL((u) => u.pathname === '/');
    expect((await stored(page)).user).toMatchObject({ sn: data.sn, address: account.address, account: name });
  });

  it('creates the account with the referrer of a referral link on the first wallet login', async () => {
    const inviter = await register(baseURL);
    await injectWallet(page, privateKeyToAccount(generatePrivateKey()));
    await page.goto(`/register/${inviter.sn}`);
    await page.getByTestId('wallet-login').click();
    await page.waitForURL((u) => u.pathname === '/');
    expect((await stored(page)).user).toMatchObject({ referral: inviter.sn, password: false });
  });
});
