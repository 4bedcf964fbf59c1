import { useEffect, useRef } from 'react';
import { Link } from '@tanstack/react-router';
import { Trans, useLingui } from '@lingui/react/macro';
import { dateTime } from './format.ts';
import { waitWords } from './wait-words.ts';
import * as css from './withdraw-lock.css.ts';

/**
 * Whether withdrawals are locked after a change of the account's security, and why; `onExpire` is
 * called once the lock has passed (the screen asks the server again). `link`: the way to /my/security.
 * `lockMs`: how long a change locks them, as the operator set it.
 */
export function WithdrawLock({ until, lockMs, onExpire, link = false, showOpen = true }: { until: string | null; lockMs: number; onExpire?: () => void; link?: boolean; showOpen?: boolean }) {
  const { i18n } = useLingui();
  // The timer follows `until` alone: it calls the latest `onExpire` (a screen passes a new function at each render).
  const expire = useRef(onExpire);
  useEffect(() => {
    expire.current = onExpire;
  });
  const expires = onExpire !== undefined;
  useEffect(() => {
    if (!until || !expires) return;
    const ms = new Date(until).getTime() - Date.now() + 500;
    if (ms > 2 ** 31 - 1) return;
    const timer = setTimeout(() => expire.current?.(), Math.max(0, ms));
    return () => clearTimeout(timer);
  }, [until, expires]);
  const wait = waitWords(lockMs, i18n);
  if (!until) {
    return showOpen ? (
      <section className={css.banner.open} data-testid="withdraw-open">
        <p className={css.bannerTitle}>
          <Trans>提现未锁定</Trans>
        </p>
        <p className={css.bannerText}>
          <Trans>修改登录密码、修改支付密码或关闭两步验证后，提现将锁定 {wait}；首次设置支付密码和开启两步验证不会锁定。</Trans>
        </p>
      </section>
    ) : null;
  }
  const when = dateTime(until, i18n.locale);
  return (
    <section className={css.banner.locked} role="status" data-testid="withdraw-locked">
      <p className={css.bannerTitle}>
        <Trans>提现已锁定至 {when}</Trans>
      </p>
      <p className={css.bannerText}>
        <Trans>最近修改了密码或关闭了两步验证。为防止账户被盗后资金被立即转走，变更后 {wait} 内不能提现，到时自动恢复。不是你本人操作？请立即修改登录密码。</Trans>
      </p>
      {link ? (
        <Link to="/my/security" className={css.bannerLink}>
          <Trans>查看账户安全</Trans> ›
        </Link>
      ) : null}
    </section>
  );
}
