import { afterEach, beforeAll, beforeEach, describe, expect, inject, it } from 'vitest';
import type { Page } from 'playwright-core';
import { openPhone, uniqueAccount, type Phone } from './support/browser.ts';
import { PASSWORD, register, storeSession, type Registered } from './support/session.ts';

const baseURL = inject('baseURL');
const path = (page: Page) => new URL(page.url()).pathname;

/**
 * The register screen: a referral link in either form fills the referrer in, and the user
 * agreement and the privacy policy open from it, as pages of their own, in zh and in en.
 */
describe('the register screen', () => {
  let phone: Phone | undefined;
  let page: Page;
  /** Someone who invites: registered once, only read. */
  let referrer: Registered;

  beforeAll(async () => {
    referrer = await register(baseURL);
  });
  beforeEach(async () => {
    phone = await openPhone(baseURL);
    page = phone.page;
  });
  afterEach(async () => {
    await phone?.close();
    phone = undefined;
  });

  it('checks each field when it is left: a mistake shows where it was made, and clears once fixed', async () => {
    await page.goto('/register');
    await page.locator('input[name="account"]').fill('a!');
    await page.locator('input[name="password"]').focus(); // leaves the account
    await expect.poll(() => page.getByRole('alert').count()).toBe(1);
    await page.locator('input[name="password"]').fill('short');
    await page.locator('input[name="confirm"]').focus();
    await expect.poll(() => page.getByRole('alert').count()).toBe(2);
    await page.locator('input[name="account"]').fill('trader2026');
    await page.locator('input[name="password"]').focus();
    await expect.poll(() => page.getByRole('alert').count()).toBe(1);
    expect(path(page)).toBe('/register'); // nothing sent
  });

  it('fills the referrer in from /register?code= exactly as from /register/{uid}, and registers under that referrer', async () => {
    const referrerInput = page.locator('input[name="referrer"]');
    await page.goto(`/register/${referrer.sn}`);
    await expect.poll(() => referrerInput.inputValue()).toBe(referrer.sn);
    await page.goto(`/register?code=${referrer.sn}`);
    await expect.poll(() => referrerInput.inputValue()).toBe(referrer.sn);
    // A plain /register has none.
    await page.goto('/register');
    await page.locator('input[name="account"]').waitFor();
    expect(await referrerInput.inputValue()).toBe('');

    const account = uniqueAccount('c');
    await page.goto(`/register?code=${referrer.sn}`);
    await page.locator('input[name="account"]').fill(account);
    await page.locator('input[name="password"]').fill(PASSWORD);
    await page.locator('input[name="confirm"]').fill(PASSWORD);
    await page.locator('input[name="agreement"]').check();
    await page.locator('form button[type="submit"]').click();
    await page.waitForURL((u) => u.pathname === '/');
    const user = JSON.parse((await page.evaluate(() => localStorage.getItem('user')))!) as Record<string, unknown>;
    expect(user).toMatchObject({ account, referral: referrer.sn });
  });

  for (const [language, texts] of [
    ['zh', { agreementLink: '用户协议', privacyLink: '隐私政策', agreement: '用户协议', privacy: '隐私政策', risk: '风险提示', keys: 'AES-256-GCM', deletion: '如何删除账号' }],
    [
      'en',
      { agreementLink: 'User Agreement', privacyLink: 'Privacy Policy', agreement: 'User Agreement', privacy: 'Privacy Policy', risk: 'Risks', keys: 'AES-256-GCM', deletion: 'Deleting your account' },
    ],
  ] as const) {
    it(`opens the user agreement and the privacy policy from the register screen as pages, and comes back to what was typed (${language})`, async () => {
      await page.goto('/test');
      await page.evaluate((l) => localStorage.setItem('theme-storage', JSON.stringify({ theme: 'light', language: l })), language);
      await page.goto(`/register?code=${referrer.sn}`);
      const form = page.locator('form');
      await page.locator('input[name="account"]').fill('reader01');

      await form.getByRole('link', { name: texts.agreementLink }).click();
      await page.waitForURL((u) => u.pathname === '/legal/agreement');
      await expect.poll(() => page.locator('h1').innerText()).toBe(texts.agreement);
      const agreement = await page.getByTestId('legal-agreement').innerText();
      expect(agreement).toContain(texts.risk);
      expect(agreement).toContain(texts.keys);
      expect(agreement).toContain(`support@${new URL(baseURL).hostname}`);
      // Back on the form, what was typed is still there.
      await page.getByRole('button', { name: language === 'zh' ? '返回' : 'Back' }).click();
      await page.waitForURL((u) => u.pathname === '/register');
      await expect.poll(() => page.locator('input[name="account"]').inputValue()).toBe('reader01');
      expect(await page.locator('input[name="referrer"]').inputValue()).toBe(referrer.sn);

      await form.getByRole('link', { name: texts.privacyLink }).click();
      await page.waitForURL((u) => u.pathname === '/legal/privacy');
      await expect.poll(() => page.locator('h1').innerText()).toBe(texts.privacy);
      const privacy = await page.getByTestId('legal-privacy').innerText();
      expect(privacy).toContain(texts.deletion);
      expect(privacy).toContain(texts.keys);
      // A document of one language only: no Chinese in the English one, and the Chinese one in Chinese.
      if (language === 'en') expect(privacy + agreement).not.toMatch(/[\u4e00-\u9fff]/);
      else expect(privacy).toContain('我们保存的信息');
    });
  }

  it('shows the documents to anyone, a logged-in trader too, each linking to the other; an unknown document goes home', async () => {
    await page.goto('/legal/privacy');
    await expect.poll(() => page.locator('h1').innerText()).toBe('隐私政策');
    await page.getByRole('link', { name: '用户协议' }).click();
    await page.waitForURL((u) => u.pathname === '/legal/agreement');
    await expect.poll(() => page.locator('h1').innerText()).toBe('用户协议');
    // Its language switch turns the page into the other language in place.
    await page.getByRole('button', { name: 'English' }).click();
    await expect.poll(() => page.locator('h1').innerText()).toBe('User Agreement');
    expect(await page.getByTestId('legal-agreement').innerText()).toContain('Risks');
    await page.getByRole('button', { name: '中文' }).click();
    await expect.poll(() => page.locator('h1').innerText()).toBe('用户协议');
    await page.goto('/legal/nothing');
    await page.waitForURL((u) => u.pathname === '/login');

    await storeSession(page, referrer);
    await page.goto('/legal/agreement');
    await expect.poll(() => page.locator('h1').innerText()).toBe('用户协议');
    expect(path(page)).toBe('/legal/agreement');
  });
});
