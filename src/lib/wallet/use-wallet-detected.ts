import { useEffect, useState } from 'react';
import { detectWallet } from './detect.ts';

/** Whether this browser has a wallet: null while looking (EIP-1193 or an EIP-6963 announcement). */
export function useWalletDetected(): boolean | null {
  const [found, setFound] = useState<boolean | null>(null);
  useEffect(() => {
    let live = true;
    void detectWallet().then((f) => live && setFound(f));
    return () => {
      live = false;
    };
  }, []);
  return found;
}
