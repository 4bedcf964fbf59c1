import { describe, expect, it } from 'vitest';
import { isIos, isStandalone, isWalletBrowser } from './platform.ts';

const android = 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0 Mobile Safari/537.36';
const iphone = 'Mozilla/5.0 (iPhone; CPU iPhone OS 18_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.4 Mobile/15E148 Safari/604.1';

describe('the browser the app runs in', () => {
  it("tells a wallet's in-app browser by its user agent", () => {
    const wallets = [`${android} MetaMaskMobile`, `${iphone} Trust/10.2`, `${android} TokenPocket_Android`, `${android} OKApp/(OKEx/6.90.0)`, `${android} BNC/2.95.0 (Binance Web3 Wallet) Binance`];
    for (const ua of wallets) expect(isWalletBrowser(ua), ua).toBe(true);
    for (const ua of [android, iphone, 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 Chrome/140.0 Safari/537.36']) expect(isWalletBrowser(ua), ua).toBe(false);
  });

  it('tells iOS (iPadOS by its touch screen) and the home-screen app', () => {
    const win = (ua: string, touch = 0, standalone = false) => ({ navigator: { userAgent: ua, maxTouchPoints: touch, standalone }, matchMedia: () => ({ matches: false }) }) as unknown as Window;
    expect(isIos(win(iphone))).toBe(true);
    expect(isIos(win('Mozilla/5.0 (Macintosh; Intel Mac OS X 14_4) AppleWebKit/605.1.15 Safari/605.1.15', 5))).toBe(true);
    expect(isIos(win('Mozilla/5.0 (Macintosh; Intel Mac OS X 14_4) AppleWebKit/605.1.15 Safari/605.1.15'))).toBe(false);
    expect(isIos(win(android))).toBe(false);
    expect(isStandalone(win(iphone))).toBe(false);
    expect(isStandalone(win(iphone, 5, true))).toBe(true);
  });
});
