import { lazy, Suspense } from 'react';
import { useWalletDetected } from '../use-wallet-detected.ts';

const WalletButton = lazy(() => import('./wallet-button.tsx').then((m) => ({ default: m.WalletButton })));

/** The wallet login, in a browser that has a wallet only: its code loads once one is detected (not in the entry). */
export function WalletEntry({ referrer }: { referrer?: string | undefined }) {
  if (useWalletDetected() !== true) return null;
  return (
    <Suspense fallback={null}>
      <WalletButton referrer={referrer} />
    </Suspense>
  );
}
