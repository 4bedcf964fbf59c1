import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Page } from 'playwright-core';
import { createPublicClient, createTestClient, createWalletClient, formatUnits, http, parseUnits, type Address } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { bsc } from 'viem/chains';
import { tokenAbi } from '../contract/chain-abi.ts';
import { compileContracts } from '../server/chain/compile.ts';
import { openPhone, type Phone } from './support/browser.ts';
import { callAs, register, storeSession, type Registered } from './support/session.ts';
import { injectWallet } from './support/wallet.ts';

const baseURL = inject('baseURL');
const chainUrl = inject('chainUrl');
const chain = { ...bsc, rpcUrls: { default: { http: [chainUrl] } } };
const pub = createPublicClient({ chain, transport: http(chainUrl) });
const test = createTestClient({ chain, transport: http(chainUrl), mode: 'anvil' });

/**
 * Money in and out in the browser (issue 5 §3-4): a deposit paid from a wallet injected into the page
 * (a viem private-key account that really signs and sends to the local chain 56), credited after the
 * confirmations; a withdrawal with the payment password, paid by the server's hot wallet on chain.
 */
describe('deposits and withdrawals on chain 56', () => {
  let phone: Phone;
  let page: Page;
  let me: Registered;
  let usdt: Address;
  const balance = async () => (await callAs(baseURL, me, 'GET', '/api/user/account')).data.usdt as string;

  beforeAll(async () => {
    phone = await openPhone(baseURL);
    page = phone.page;
    me = await register(baseURL);
    usdt = (await callAs(baseURL, me, 'GET', '/api/user/depositInfo')).data.token as Address;
  });
  afterAll(async () => phone?.close());

  it('pays a deposit from the wallet (approve, then deposit with the UID) and credits it after 3 confirmations', async () => {
    const account = privateKeyToAccount(generatePrivateKey());
    await test.setBalance({ address: account.address, value: parseUnits('10', 18) });
    const minter = createWalletClient({ account, chain, transport: http(chainUrl) });
    const { TestUSDT } = compileContracts();
    await pub.waitForTransactionReceipt({ hash: await minter.writeContract({ address: usdt, abi: TestUSDT.abi, functionName: 'mint', args: [account.address, parseUnits('100', 18)] }) });
    await injectWallet(page, account, { rpcUrl: chainUrl });
    await storeSession(page, me);
    await page.goto('/my/deposit');
    await expect.poll(() => page.getByTestId('deposit-address').innerText()).toMatch(/^0x[0-9a-f]{40}$/i);
    expect(await page.getByTestId('deposit-memo').innerText()).toBe(me.sn);
    await page.getByTestId('deposit-amount').fill('5');
    await page.getByTestId('deposit-pay').click();
    await expect.poll(() => page.locator('[role=alert]').first().innerText()).toContain('最小充值 10 USDT');
    await page.getByTestId('deposit-amount').fill('25.5');
    await page.getByTestId('deposit-pay').click();
    await expect.poll(() => page.getByTestId('deposit-report').innerText(), { timeout: 20_000 }).toContain('确认数 1/3');
    expect(await balance()).toBe('0');
    expect(formatUnits(await pub.readContract({ address: usdt, abi: tokenAbi, functionName: 'balanceOf', args: [account.address] }), 18)).toBe('74.5');
    await test.mine({ blocks: 2 });
    await expect.poll(balance, { timeout: 10_000 }).toBe('25.5');
    await expect.poll(() => page.getByTestId('deposit-list').innerText(), { timeout: 10_000 }).toContain('已到账');
    await test.mine({ blocks: 5 });
    await new Promise((r) => setTimeout(r, 600));
    expect(await balance()).toBe('25.5'); // once
  });

  it('withdraws with the payment password after a confirmation, refusing a wrong one, and pays it on chain', async () => {
    expect((await callAs(baseURL, me, 'POST', '/api/user/password', { type: 'payment', old: 'Trade2026x', password: '135790', confirm: '135790' })).code).toBe(1);
    const to = privateKeyToAccount(generatePrivateKey()).address;
    await page.goto('/my/withdraw');
    await expect.poll(() => page.getByTestId('withdraw-balance').innerText()).toContain('25.5');
    // Setting the payment password locked withdrawals (WITHDRAW_LOCK_HOURS: 7.2 s for the tests): the
    // banner says so and the form cannot be sent until the lock passes; the screen opens by itself then.
    await expect.poll(() => page.getByTestId('withdraw-submit').isEnabled(), { timeout: 20_000, interval: 500 }).toBe(true);
    expect(await page.getByTestId('withdraw-locked').count()).toBe(0);
    await page.getByTestId('withdraw-address').fill(to);
    await page.getByTestId('withdraw-amount').fill('12');
    await page.getByTestId('withdraw-password').fill('000000');
    expect(await page.getByTestId('withdraw-received').innerText()).toContain('11');
    const send = async () => {
      await page.getByTestId('withdraw-submit').click();
      await page.getByRole('dialog').getByRole('button', { name: '确认提现' }).click();
      await page.getByRole('dialog').waitFor({ state: 'detached' });
    };
    await send();
    await expect.poll(() => page.getByTestId('withdraw-error').innerText()).toBe('密码错误');
    expect(await balance()).toBe('25.5');
    await page.getByTestId('withdraw-password').fill('135790');
    // The first request to a new address records it and is refused until the same wait has passed.
    await send();
    await expect.poll(() => page.getByTestId('withdraw-new-address').innerText()).toContain('新地址');
    expect(await page.getByTestId('withdraw-error').innerText()).toContain('前不能提现');
    expect(await balance()).toBe('25.5');
    await expect.poll(async () => {
      await send();
      return page.getByTestId('withdraw-done').count();
    }, { timeout: 20_000, interval: 1_000 }).toBe(1);
    expect(await page.getByTestId('withdraw-done').innerText()).toContain('提现已提交');
    expect(await balance()).toBe('13.5');
    await expect.poll(() => page.getByTestId('withdraw-list').locator('li').first().getAttribute('data-status'), { timeout: 20_000 }).toBe('confirmed');
    expect(formatUnits(await pub.readContract({ address: usdt, abi: tokenAbi, functionName: 'balanceOf', args: [to] }), 18)).toBe('11');
  });

  it('converts USDT to fuel from the asset screen with the payment password', async () => {
    const fuelBefore = (await callAs(baseURL, me, 'GET', '/api/user/account')).data.fuel as string;
    await page.goto('/my/asset/balance');
    await expect.poll(() => page.getByTestId('asset-balance').innerText()).toContain('13.5');
    await page.getByTestId('asset-change').click();
    await page.getByTestId('change-amount').fill('3.5');
    await page.getByTestId('change-password').fill('135790');
    expect(await page.getByRole('dialog').innerText()).toContain('将得到 3.5 燃料');
    await page.getByTestId('change-submit').click();
    await expect.poll(() => page.getByTestId('change-done').innerText()).toBe('已兑换 3.5 燃料');
    expect(await balance()).toBe('10');
    expect((await callAs(baseURL, me, 'GET', '/api/user/account')).data.fuel).toBe(String(Number(fuelBefore) + 3.5));
    await page.keyboard.press('Escape');
    await expect.poll(() => page.getByTestId('asset-balance').innerText()).toContain('10');
    await expect.poll(() => page.getByTestId('asset-logs').innerText()).toContain('兑换');
  });
});
