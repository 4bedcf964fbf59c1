import { afterEach, beforeEach, describe, expect, inject, it } from 'vitest';
import type { Page } from 'playwright-core';
import { createPublicClient, createTestClient, createWalletClient, formatUnits, http, parseAbi, parseUnits, type Address, type Hash } from 'viem';
import { generatePrivateKey, privateKeyToAccount, type PrivateKeyAccount } from 'viem/accounts';
import { bsc } from 'viem/chains';
import { depositAbi, tokenAbi } from '../contract/chain-abi.ts';
import { openPhone, type Phone } from './support/browser.ts';
import { callAs, PASSWORD, register, storeSession, type Registered } from './support/session.ts';
import { injectWallet } from './support/wallet.ts';

const baseURL = inject('baseURL');
const chainUrl = inject('chainUrl');
const chain = { ...bsc, rpcUrls: { default: { http: [chainUrl] } } };
const pub = createPublicClient({ chain, transport: http(chainUrl), pollingInterval: 100 });
const test = createTestClient({ chain, transport: http(chainUrl), mode: 'anvil' });

const balanceOf = async (user: Registered) => (await callAs(baseURL, user, 'GET', '/api/user/account')).data.usdt as string;
/** The test token's mint (server/chain/contracts/TestUSDT.sol; no compiler needed for one call). */
const mintAbi = parseAbi(['function mint(address to, uint256 amount)']);
const mined = async (hash: Promise<Hash>) => pub.waitForTransactionReceipt({ hash: await hash });

/** A new wallet on the local chain 56 with gas (BNB) and `usdt` of the test token minted to it. */
async function newWallet(usdt: Address, amount: string): Promise<PrivateKeyAccount> {
  const account = privateKeyToAccount(generatePrivateKey());
  await test.setBalance({ address: account.address, value: parseUnits('10', 18) });
  const wallet = createWalletClient({ account, chain, transport: http(chainUrl) });
  await mined(wallet.writeContract({ address: usdt, abi: mintAbi, functionName: 'mint', args: [account.address, parseUnits(amount, 18)] }));
  return account;
}

/**
 * Funds `user` the way a trader does, without the screen (the deposit test covers the screen): a new
 * wallet approves and pays `amount` USDT into the deposit contract with the user's UID, 2 more blocks
 * are mined (3 confirmations), and the server's watcher credits it.
 */
async function fund(user: Registered, amount: string): Promise<void> {
  const info = (await callAs(baseURL, user, 'GET', '/api/user/depositInfo')).data as { token: Address; contract: Address };
  const account = await newWallet(info.token, amount);
  const wallet = createWalletClient({ account, chain, transport: http(chainUrl) });
  const value = parseUnits(amount, 18);
  await mined(wallet.writeContract({ address: info.token, abi: tokenAbi, functionName: 'approve', args: [info.contract, value] }));
  await mined(wallet.writeContract({ address: info.contract, abi: depositAbi, functionName: 'deposit', args: [value, BigInt(user.sn)] }));
  await test.mine({ blocks: 2 });
  await expect.poll(() => balanceOf(user)).toBe(amount);
}

/** Sets the user's payment password through the API (the settings screen has its own tests). */
async function setPaymentPassword(user: Registered, password: string): Promise<void> {
  expect((await callAs(baseURL, user, 'POST', '/api/user/password', { type: 'payment', old: PASSWORD, password, confirm: password })).code).toBe(1);
}

/**
 * Money in and out in the browser: a deposit paid from a wallet injected into the page
 * (a viem private-key account that really signs and sends to the local chain 56), credited after the
 * confirmations; a withdrawal with the payment password, paid by the server's hot wallet on chain; a
 * change of USDT into fuel. Each test has its own trader, phone and money (funded by a real deposit on
 * chain), so any one runs alone (`-t`) and in any order.
 */
describe('deposits and withdrawals on chain 56', () => {
  let phone: Phone | undefined;
  let page: Page;
  let me: Registered;
  const balance = () => balanceOf(me);
  // The set-up is a hook's (its own deadline): a phone and a new trader logged in through storage.
  beforeEach(async () => {
    phone = await openPhone(baseURL);
    page = phone.page;
    me = await register(baseURL);
    await storeSession(page, me);
  });
  afterEach(async () => {
    await phone?.close();
    phone = undefined;
  });

  it('pays a deposit from the wallet (approve, then deposit with the UID) and credits it after 3 confirmations', async () => {
    const usdt = (await callAs(baseURL, me, 'GET', '/api/user/depositInfo')).data.token as Address;
    const account = await newWallet(usdt, '100');
    await injectWallet(page, account, { rpcUrl: chainUrl }); // for the pages opened from now on
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
    // The line under the form follows the report to its end too (it once stayed at 确认数 0/3).
    await expect.poll(() => page.getByTestId('deposit-report').innerText(), { timeout: 10_000 }).toBe('已到账。');
    await test.mine({ blocks: 5 });
    await new Promise((r) => setTimeout(r, 600));
    expect(await balance()).toBe('25.5'); // once
  }, 90_000); // 10 s measured at load 2, 37 s at load 13

  it('withdraws with the payment password after a confirmation, refusing a wrong one, and pays it on chain', async () => {
    await setPaymentPassword(me, '135790');
    await fund(me, '25.5');
    const usdt = (await callAs(baseURL, me, 'GET', '/api/user/depositInfo')).data.token as Address;
    const to = privateKeyToAccount(generatePrivateKey()).address;
    await page.goto('/my/withdraw');
    await expect.poll(() => page.getByTestId('withdraw-balance').innerText()).toContain('25.5');
    // The first payment password locks nothing: the form is open at once. A new address waits
    // (WITHDRAW_LOCK_HOURS: 7.2 s for the tests). The waits below are at least 5x a quiet machine's.
    await expect.poll(() => page.getByTestId('withdraw-submit').isEnabled(), { timeout: 40_000, interval: 500 }).toBe(true);
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
    await expect
      .poll(
        async () => {
          await send();
          return page.getByTestId('withdraw-done').count();
        },
        { timeout: 40_000, interval: 1_000 },
      )
      .toBe(1);
    expect(await page.getByTestId('withdraw-done').innerText()).toMatch(/^(提现已提交，正在处理。|提现已完成，到账 11.00 USDT。)$/);
    expect(await balance()).toBe('13.5');
    await expect.poll(() => page.getByTestId('withdraw-list').locator('li').first().getAttribute('data-status'), { timeout: 20_000 }).toBe('confirmed');
    // The line under the button follows the record to its end (it once kept 正在处理 under 已完成).
    await expect.poll(() => page.getByTestId('withdraw-done').innerText()).toBe('提现已完成，到账 11.00 USDT。');
    expect(formatUnits(await pub.readContract({ address: usdt, abi: tokenAbi, functionName: 'balanceOf', args: [to] }), 18)).toBe('11');
  }, 150_000);

  it('converts USDT to fuel from the asset screen with the payment password', async () => {
    await setPaymentPassword(me, '135790');
    await fund(me, '13.5');
    const fuelBefore = (await callAs(baseURL, me, 'GET', '/api/user/account')).data.fuel as string;
    await page.goto('/my/asset/balance');
    await expect.poll(() => page.getByTestId('asset-balance').innerText()).toContain('13.5');
    await page.getByTestId('asset-change').click();
    await page.getByTestId('change-amount').fill('3.5');
    await page.getByTestId('change-password').fill('135790');
    expect(await page.getByRole('dialog').innerText()).toContain('将得到 3.50 燃料'); // fuel at 2-4 decimals;
    await page.getByTestId('change-submit').click();
    await expect.poll(() => page.getByTestId('change-done').innerText()).toBe('已兑换 3.50 燃料');
    expect(await balance()).toBe('10');
    expect((await callAs(baseURL, me, 'GET', '/api/user/account')).data.fuel).toBe(String(Number(fuelBefore) + 3.5));
    await page.keyboard.press('Escape');
    await expect.poll(() => page.getByTestId('asset-balance').innerText()).toContain('10');
    await expect.poll(() => page.getByTestId('asset-logs').innerText()).toContain('兑换');
  });
});
