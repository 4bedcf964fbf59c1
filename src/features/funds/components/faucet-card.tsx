import { useState } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import { Field } from '../../../components/ui/field.tsx';
import * as ui from '../../../components/ui/ui.css.ts';
import { describeError } from '../../../lib/lazy-api.ts';
import { walletFailureText } from '../../../lib/wallet/wallet-failure.ts';
import * as bots from '../../../shared/blocks.css.ts';
import { write } from '../../../shared/query.ts';
import * as css from './funds.css.ts';

/**
 * A demo's faucet (the server's local dev chain only, DEV_CHAIN=1): test USDT and BNB for gas, sent
 * to the wallet in this browser or to any address typed, so a new trader can try a deposit at once.
 * The server refuses it on any real chain.
 */
export function FaucetCard({ bound, hasWallet }: { bound: string | null; hasWallet: boolean }) {
  const { t, i18n } = useLingui();
  const [address, setAddress] = useState(bound ?? '');
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  const [sent, setSent] = useState<{ usdt: string; bnb: string; address: string } | null>(null);

  const fromWallet = async () => {
    setError('');
    try {
      const { connectOnBsc } = await import('../../../lib/wallet/wallet-connect.ts');
      setAddress((await connectOnBsc()).address);
    } catch (e) {
      setError(await walletFailureText(e, i18n));
    }
  };
  const send = async () => {
    if (!/^0x[0-9a-fA-F]{40}$/.test(address.trim())) return setError(t`请输入 0x 开头的 42 位钱包地址`);
    setError('');
    setBusy(true);
    try {
      setSent(await write('userFaucet', { address: address.trim() }, { show: false }));
    } catch (e) {
      setError(await describeError(e));
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className={ui.card} aria-labelledby="faucet-title" data-testid="faucet">
      <h2 id="faucet-title" className={bots.sectionTitle}>
        <Trans>领取测试币（本地开发链）</Trans>
      </h2>
      <p className={css.note}>
        <Trans>这台服务器运行的是本地测试链，不是真实的 BNB Smart Chain：可以免费领取测试 USDT 和用作手续费的测试 BNB，用来试充值和提现。</Trans>
      </p>
      <div className={css.inputRow}>
        <Field
          label={<Trans>钱包地址</Trans>}
          autoComplete="off"
          spellCheck={false}
          value={address}
          onChange={(e) => setAddress(e.target.value.trim())}
          error={error || undefined}
          placeholder="0x…"
          data-testid="faucet-address"
        />
        <button type="button" className={css.button.primary} disabled={busy} onClick={() => void send()} data-testid="faucet-send">
          <Trans>领取</Trans>
        </button>
      </div>
      {hasWallet ? (
        <button type="button" className={css.button.secondary} onClick={() => void fromWallet()} data-testid="faucet-wallet">
          <Trans>使用浏览器钱包的地址</Trans>
        </button>
      ) : null}
      {sent ? (
        <p className={css.step} role="status" data-testid="faucet-sent">
          <Trans>
            已发送 {sent.usdt} USDT 和 {sent.bnb} BNB 到 {sent.address.slice(0, 6)}…{sent.address.slice(-4)}。
          </Trans>
        </p>
      ) : null}
    </section>
  );
}
