/**
 * Whether this browser has a wallet: an injected EIP-1193 provider (`window.ethereum`, as
 * MetaMask, TokenPocket, Trust, OKX and Binance Web3 in-app browsers give), or one that announces itself
 * through EIP-6963. No wallet library is loaded for this: the login screen offers the wallet button only
 * when there is something to connect to.
 */
export interface Eip1193 {
  request(args: { method: string; params?: unknown[] | object }): Promise<unknown>;
}

declare global {
  interface Window {
    ethereum?: Eip1193;
  }
}

export function detectWallet(win: Window = window, waitMs = 200): Promise<boolean> {
  if (win.ethereum) return Promise.resolve(true);
  return new Promise((resolve) => {
    const found = () => {
      win.removeEventListener('eip6963:announceProvider', found);
      resolve(true);
    };
    win.addEventListener('eip6963:announceProvider', found);
    win.dispatchEvent(new Event('eip6963:requestProvider'));
    setTimeout(() => {
      win.removeEventListener('eip6963:announceProvider', found);
      resolve(Boolean(win.ethereum));
    }, waitMs);
  });
}
