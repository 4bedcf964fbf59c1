import { useState } from 'react';
import { useAtomValue } from 'jotai';
import { Trans, useLingui } from '@lingui/react/macro';
import { Page } from '../../../components/ui/page.tsx';
import { LoadState } from '../../../components/ui/load-state.tsx';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog.tsx';
import * as ui from '../../../components/ui/ui.css.ts';
import { userAtom } from '../../../state/session.ts';
import { useLogout } from '../use-logout.ts';
import { useUserIndex } from '../use-user-index.ts';
import { Avatar } from './avatar.tsx';
import { MenuRow } from './menu-row.tsx';
import { PortfolioCard } from '../../../shared/portfolio.tsx';
import { UnreadBadge, useUnread } from '../../../shared/unread.tsx';
import * as css from './settings.css.ts';

/** The "my" tab (/my and /portfolio): who you are, your balances and portfolio, and the way to every setting. */
export function MyPage() {
  const { t } = useLingui();
  const user = useAtomValue(userAtom);
  const { index, failed, reload } = useUserIndex();
  const { logout, busy } = useLogout();
  const [confirming, setConfirming] = useState(false);
  const unread = useUnread();
  const unreadWarnings = useUnread('warning');
  const dash = '—';
  return (
    <Page title={<Trans>我的</Trans>} root>
      <section className={`${ui.card} ${css.profileCard}`} aria-label={t`账户信息`}>
        <Avatar src={user?.avatar ?? ''} name={user?.nickname || user?.account || '?'} />
        <div>
          <p className={css.name} data-testid="my-nickname">
            {user?.nickname || user?.account}
          </p>
          <p className={ui.muted}>
            UID: <span data-testid="my-sn">{user?.sn}</span>
          </p>
        </div>
      </section>
      <section className={`${ui.card} ${css.stats}`} aria-label={t`资产概览`} aria-busy={!index && !failed}>
        <div>
          <div className={css.statValue}>{index?.fuel ?? dash}</div>
          <div className={ui.muted}>
            <Trans>燃料</Trans>
          </div>
        </div>
        <div>
          <div className={css.statValue}>{index?.points ?? dash}</div>
          <div className={ui.muted}>
            <Trans>积分</Trans>
          </div>
        </div>
        <div>
          <div className={css.statValue}>{index?.referrals ?? dash}</div>
          <div className={ui.muted}>
            <Trans>邀请</Trans>
          </div>
        </div>
      </section>
      {/* The portfolio: /portfolio is this page (the specification), so its accounts' equity is here too. */}
      <PortfolioCard />
      <LoadState loading={false} failed={failed} failedText={<Trans>账户数据加载失败。</Trans>} onRetry={reload} />
      <ul className={ui.list}>
        <MenuRow to="/my/profile" label={<Trans>个人资料</Trans>} />
        <MenuRow to="/my/password/$type" params={{ type: 'login' }} label={<Trans>登录密码</Trans>} />
        <MenuRow to="/my/password/$type" params={{ type: 'payment' }} label={<Trans>支付密码</Trans>} value={index ? (index.profile.paymentPasswordSet ? t`已设置` : t`未设置`) : undefined} />
        <MenuRow to="/my/security" label={<Trans>账户安全</Trans>} />
      </ul>
      <ul className={ui.list}>
        <MenuRow to="/my/asset" label={<Trans>我的资产</Trans>} />
        <MenuRow to="/my/deposit" label={<Trans>充值</Trans>} />
        <MenuRow to="/my/withdraw" label={<Trans>提现</Trans>} />
        <MenuRow to="/bind" label={<Trans>绑定交易所</Trans>} />
        <MenuRow to="/my/bind/$type" params={{ type: 'wallet' }} label={<Trans>绑定钱包</Trans>} value={user?.address ? `${user.address.slice(0, 6)}…${user.address.slice(-4)}` : t`未绑定`} />
        <MenuRow to="/my/bind/$type" params={{ type: 'email' }} label={<Trans>绑定邮箱</Trans>} />
        <MenuRow to="/my/bind/$type" params={{ type: 'mobile' }} label={<Trans>绑定手机</Trans>} value={user?.mobile || undefined} />
        <MenuRow to="/referral" label={<Trans>邀请好友</Trans>} />
        <MenuRow to="/notice/list" label={<Trans>公告</Trans>} value={unread > 0 ? <UnreadBadge count={unread} /> : undefined} />
        <MenuRow to="/notice/warn" label={<Trans>风险提示</Trans>} value={unreadWarnings > 0 ? <UnreadBadge count={unreadWarnings} /> : undefined} />
      </ul>
      <ul className={ui.list}>
        <MenuRow to="/setting" label={<Trans>设置</Trans>} />
        <MenuRow to="/about" label={<Trans>关于</Trans>} />
      </ul>
      <button type="button" className={ui.button.danger} onClick={() => setConfirming(true)}>
        <Trans>退出登录</Trans>
      </button>
      <ConfirmDialog
        open={confirming}
        onOpenChange={setConfirming}
        title={<Trans>退出登录</Trans>}
        description={<Trans>退出后需要重新登录。运行中的策略不受影响，会继续在服务器上执行。</Trans>}
        confirmLabel={<Trans>退出</Trans>}
        busy={busy}
        onConfirm={() => void logout()}
      />
    </Page>
  );
}
