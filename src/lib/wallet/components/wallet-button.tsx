import { useState } from 'react';
import { useNavigate } from '@tanstack/react-router';
import { useAtom, useSetAtom } from 'jotai';
import { Trans, useLingui } from '@lingui/react/macro';
import { signInAtom, walletLoadingAtom } from '../../../state/session.ts';
import * as ui from '../../../components/ui/ui.css.ts';
import * as css from './wallet.css.ts';

/** "Log in with a wallet" (WalletEntry shows it where a wallet is detected); the wallet code loads on the tap. */
export function WalletButton({ referrer }: { referrer?: string | undefined }) {
  const { i18n } = useLingui();
  const navigate = useNavigate();
  const signIn = useSetAtom(signInAtom);
  const [busy, setBusy] = useAtom(walletLoadingAtom);
  const [failure, setFailure] = useState('');

  const start = async () => {
    if (busy) return;
    setBusy(true);
    setFailure('');
    try {
      const { walletSignIn } = await import('../wallet-login.ts');
      const data = await walletSignIn(referrer);
      signIn(data, 'wallet');
      await navigate({ to: '/', replace: true });
    } catch (error) {
      // The failure texts load only when a wallet login fails (not in the login screen's entry).
      const { walletFailureText } = await import('../wallet-failure.ts');
      setFailure(await walletFailureText(error, i18n));
    } finally {
      setBusy(false);
    }
  };
  return (
    <div className={css.box}>
      {failure ? (
        <div role="alert" className={ui.formError} data-testid="wallet-failure">
          {failure}
        </div>
      ) : null}
      <button type="button" className={ui.button.secondary} onClick={() => void start()} disabled={busy} data-testid="wallet-login">
        {busy ? <Trans>请在钱包中确认…</Trans> : <Trans>钱包登录</Trans>}
      </button>
    </div>
  );
}
