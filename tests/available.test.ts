import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { Phone } from './support/browser.ts';
import { callAs, loggedInPhone, type Registered } from './support/session.ts';

const baseURL = inject('baseURL');

/** Issue 14 §5: the create screen shows what the account has free, and warns before a start it would refuse. */
describe('the free balance on the create screen', () => {
  let phone: Phone;
  let page: Page;
  let user: Registered;
  beforeAll(async () => {
    ({ phone, page, user } = await loggedInPhone(baseURL));
    expect((await callAs(baseURL, user, 'POST', '/api/exchanges/bind', { exchangeId: 1, apiKey: 'paperkey01', secretKey: 'papersecret01' })).code).toBe(1);
  });
  afterAll(async () => phone?.close());

  it('shows the Paper account’s 10,000 USDT under the investment and warns when every order would need more', async () => {
    await page.goto('/strategy/martin');
    const hint = page.getByTestId('available-hint');
    await expect.poll(() => hint.innerText()).toContain('可用 10,000 USDT');
    expect(await hint.getByRole('alert').count()).toBe(0);
    // 5,000 + 10,000 + 20,000 + ... : the worst case is far beyond 10,000.
    await page.locator('input[name="investment"]').fill('200000');
    await page.locator('input[name="firstOrder"]').fill('5000');
    await expect.poll(() => hint.getByRole('alert').count()).toBe(1);
    expect(await hint.getByRole('alert').innerText()).toContain('超过可用余额');
  });
});
