/**
 * What kind of browser the app runs in, for the features that depend on it: installing to the home
 * screen (settings) and alerts when the app is closed (alerts). Read from the user agent and the display
 * mode only; no feature is tried out here.
 */

/** The in-app browsers of wallets (MetaMask, Trust, TokenPocket, OKX, Binance, ...): they install nothing and receive no pushes. */
const WALLETS = /TokenPocket|MetaMask|Trust|OKApp|OKEx|BitKeep|Bitget|Binance|imToken|SafePal|Coinbase/i;

/** A wallet's in-app browser, by its user agent. */
export function isWalletBrowser(userAgent: string): boolean {
  return WALLETS.test(userAgent);
}

/** Opened from the home screen (an installed app), not in a browser tab. */
export function isStandalone(win: Window = window): boolean {
  return Boolean(win.matchMedia?.('(display-mode: standalone)').matches) || (win.navigator as { standalone?: boolean }).standalone === true;
}

/** iPhone or iPad (iPadOS reports a Mac user agent; its touch screen gives it away). */
export function isIos(win: Window = window): boolean {
  const ua = win.navigator.userAgent;
  return /iPhone|iPad|iPod/.test(ua) || (/Macintosh/.test(ua) && win.navigator.maxTouchPoints > 1);
}
