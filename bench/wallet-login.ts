// Wallet login from the tap to logged in (the token stored), local, with a wallet that signs at once
// (a viem private-key account injected as an EIP-1193 provider: no human in the loop). The first login
// also loads the wallet code; the median is over `runs` logins after it, each from a fresh /login.
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { openPhone } from '../tests/support/browser.ts';
import { injectWallet } from '../tests/support/wallet.ts';
import { median } from './stats.ts';

export async function measureWalletLogin(baseURL: string, runs = 10) {
  const phone = await openPhone(baseURL);
  try {
    const { page } = phone;
    await injectWallet(page, privateKeyToAccount(generatePrivateKey()), { chainId: 1 });
    const times: number[] = [];
    for (let i = 0; i < runs + 1; i++) {
      await page.goto('/test');
      await page.evaluate(() => localStorage.removeItem('token'));
      await page.goto('/login');
      await page.getByTestId('wallet-login').waitFor();
      const ms = await page.evaluate(async () => {
        const start = performance.now();
        (document.querySelector('[data-testid="wallet-login"]') as HTMLButtonElement).click();
        while (!localStorage.getItem('token')) await new Promise((r) => setTimeout(r, 2));
        return performance.now() - start;
      });
      if (i > 0) times.push(ms);
    }
    return { medianMs: Math.round(median(times)), runs: times.map(Math.round) };
  } finally {
    await phone.close();
  }
}
