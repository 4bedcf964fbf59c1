import { afterEach, describe, expect, inject, it } from 'vitest';
import { Secret, TOTP } from 'otpauth';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { openPhone, type Phone } from './support/browser.ts';
import { callAs, loggedInPhone, PASSWORD } from './support/session.ts';
import { injectWallet } from './support/wallet.ts';

const baseURL = inject('baseURL');

/**
 * Account security in the browser: two-factor authentication set up from the secret on the screen (the
 * code computed here as an authenticator app does), the recovery codes shown once, the code asked where
 * it is needed, 2FA turned off with a recovery code and the withdrawal lock that follows (turning it on
 * locks nothing); and a wallet-only account setting its first payment password with its wallet's
 * signature, which locks nothing either.
 * The e2e server locks withdrawals for 7.2 s (WITHDRAW_LOCK_HOURS 0.002), not 24 h.
 */
describe('account security', () => {
  let phone: Phone | undefined;
  afterEach(async () => {
    await phone?.close();
    phone = undefined;
  });

  it('sets up 2FA from the secret on screen, shows 8 recovery codes once, and turns off with a recovery code, which locks withdrawals', async () => {
    const session = await loggedInPhone(baseURL);
    phone = session.phone;
    const { page, user } = session;
    expect((await callAs(baseURL, user, 'POST', '/api/user/password', { type: 'payment', old: PASSWORD, password: '135790', confirm: '135790' })).code).toBe(1);

    await page.goto('/my');
    await page.getByRole('link', { name: '账户安全' }).click();
    await page.waitForURL((u) => u.pathname === '/my/security');
    await expect.poll(() => page.getByTestId('twofa-status').innerText()).toBe('未开启');
    await page.getByTestId('twofa-start').click();
    await page.getByTestId('twofa-qr').waitFor();
    expect(await page.getByTestId('twofa-qr').getAttribute('src')).toMatch(/^data:image\/png;base64,/);
    const secret = (await page.getByTestId('twofa-secret').innerText()).replace(/\s/g, '');
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    const app = new TOTP({ secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30 });

    // A code of ten minutes ago is refused, with the server's words, on the screen.
    await page.getByTestId('twofa-code').fill(app.generate({ timestamp: Date.now() - 600_000 }));
    await page.getByTestId('twofa-enable').click();
    await expect.poll(() => page.getByTestId('twofa-setup').getByRole('alert').innerText()).toBe('动态码错误或已使用，请输入新的动态码');
    await page.getByTestId('twofa-code').fill(app.generate());
    await page.getByTestId('twofa-enable').click();

    await expect.poll(() => page.getByTestId('recovery-codes').locator('li').count()).toBe(8);
    const codes = await page.getByTestId('recovery-codes').locator('li').allInnerTexts();
    for (const code of codes) expect(code).toMatch(/^[2-9A-HJKMNP-Z]{4}-[2-9A-HJKMNP-Z]{4}$/);
    expect(new Set(codes).size).toBe(8);
    expect(await page.getByTestId('recovery').innerText()).toContain('只显示这一次');
    // Turning 2FA on only adds a check: withdrawals stay open, and the screen says what would lock them, for how long.
    await expect.poll(() => page.getByTestId('withdraw-open').innerText()).toContain('首次设置支付密码和开启两步验证不会锁定');
    expect(await page.getByTestId('withdraw-open').innerText()).toMatch(/提现将锁定 7\.2 秒|提现将锁定 7 秒/);
    expect(await page.getByTestId('withdraw-locked').count()).toBe(0);
    await page.getByTestId('recovery-saved').click();
    await expect.poll(() => page.getByTestId('twofa-status').innerText()).toBe('已开启');
    expect(await page.getByTestId('recovery-left').innerText()).toContain('8');
    expect(await page.getByTestId('recovery-codes').count()).toBe(0); // never shown again

    // The withdrawal screen: open, the 2FA code asked.
    await page.goto('/my/withdraw');
    await page.getByTestId('withdraw-otp').waitFor();
    expect(await page.getByTestId('withdraw-locked').count()).toBe(0);
    expect(await page.getByTestId('withdraw-submit').isEnabled()).toBe(true);
    expect((await callAs(baseURL, user, 'GET', '/api/user/withdrawInfo')).data).toMatchObject({ twoFactor: true });

    // Keys of a live exchange need the code; the simulated Paper account does not.
    await page.goto('/bind/binance');
    await page.locator('input[name="apiKey"]').waitFor();
    await expect.poll(() => page.getByTestId('bind-otp').count()).toBe(1);
    await page.goto('/bind/paper');
    await page.locator('input[name="apiKey"]').waitFor();
    await page.waitForTimeout(300);
    expect(await page.getByTestId('bind-otp').count()).toBe(0);
    // And so does a password change.
    await page.goto('/my/password/login');
    await page.getByTestId('password-otp').waitFor();

    // Off with a recovery code, after a confirmation.
    await page.goto('/my/security');
    await page.getByTestId('twofa-disable').click();
    await page.getByTestId('twofa-disable-code').fill(codes[0]!);
    await page.getByTestId('twofa-disable-submit').click();
    await page.getByRole('dialog').getByRole('button', { name: '确认关闭' }).click();
    await expect.poll(() => page.getByTestId('twofa-status').innerText()).toBe('未开启');
    expect((await callAs(baseURL, user, 'GET', '/api/user/security')).data).toMatchObject({ twoFactor: false, recoveryCodesLeft: 0 });
    // Turning it off locks withdrawals: the screen says until when (the e2e server's lock is 7.2 s).
    await expect.poll(() => page.getByTestId('withdraw-locked').innerText()).toMatch(/提现已锁定至 \d{4}\/\d{2}\/\d{2} \d{2}:\d{2}/);
  });

  it('a wallet-only account sets its payment password by signing in its wallet, with no old password', async () => {
    phone = await openPhone(baseURL);
    const { page } = phone;
    const wallet = privateKeyToAccount(generatePrivateKey());
    const calls = await injectWallet(page, wallet);
    await page.goto('/login');
    await page.getByTestId('wallet-login').click();
    await page.waitForURL((u) => u.pathname === '/');
    const token = JSON.parse((await page.evaluate(() => localStorage.getItem('token')))!) as string;
    expect((await callAs(baseURL, { token }, 'GET', '/api/user/security')).data).toMatchObject({ walletProofNeeded: true, paymentPasswordSet: false, wallet: wallet.address });

    await page.goto('/my/password/payment');
    await page.getByTestId('password-wallet-note').waitFor();
    expect(await page.locator('input[name="old"]').count()).toBe(0);
    await page.locator('input[name="password"]').fill('246810');
    await page.locator('input[name="confirm"]').fill('246810');
    const signedBefore = calls.filter((c) => c === 'personal_sign').length;
    await page.getByTestId('password-submit').click();
    await expect.poll(() => page.getByTestId('password-done').innerText()).toContain('支付密码已设置');
    expect(calls.filter((c) => c === 'personal_sign').length).toBe(signedBefore + 1);
    // The first payment password opens withdrawals: no lock, and the screen says so.
    expect(await page.getByTestId('password-no-lock').innerText()).toContain('首次设置支付密码不会锁定提现');
    expect(await page.getByTestId('withdraw-locked').count()).toBe(0);
    expect((await callAs(baseURL, { token }, 'GET', '/api/user/security')).data).toMatchObject({ paymentPasswordSet: true, withdrawLockedUntil: null });
  });
});
