import { Link } from '@tanstack/react-router';
import { useAtomValue } from 'jotai';
import { Trans, useLingui } from '@lingui/react/macro';
import { userAtom } from '../../../state/session.ts';
import { useCopy } from '../../../lib/use-copy.ts';
import { useQr } from '../../../lib/use-qr.ts';
import { Page } from '../../../components/ui/page.tsx';
import * as ui from '../../../components/ui/ui.css.ts';
import { fuel } from '../../../shared/format.ts';
import * as css from '../../../shared/blocks.css.ts';
import * as referral from './referral.css.ts';
import { useTeam } from './use-team.ts';

/** /referral: the invite link and code (the UID), a QR code of the link, copy buttons, and the team's totals. */
export function ReferralPage() {
  const { t, i18n } = useLingui();
  const user = useAtomValue(userAtom);
  const team = useTeam(1, 1);
  const sn = user?.sn ?? '';
  const link = `${window.location.origin}/register/${sn}`;
  const qr = useQr(link);
  const { copied, copy } = useCopy();
  return (
    <Page title={<Trans>邀请好友</Trans>}>
      <section className={referral.qrCard}>
        {qr ? <img src={qr} width={180} height={180} alt={t`邀请链接二维码`} data-testid="referral-qr" className={referral.qr} /> : <div className={referral.qrPlaceholder} aria-busy="true" />}
        <p className={ui.muted}>
          <Trans>好友扫码或打开链接注册，即成为你的团队成员。</Trans>
        </p>
        <p className={referral.link} data-testid="referral-link">
          {link}
        </p>
        <div className={css.grid2}>
          <button type="button" className={ui.button.primary} onClick={() => void copy(link)}>
            {copied === link ? t`已复制` : t`复制链接`}
          </button>
          <button type="button" className={ui.button.secondary} onClick={() => void copy(sn)}>
            {copied === sn ? t`已复制` : <Trans>复制邀请码 {sn}</Trans>}
          </button>
        </div>
      </section>
      <section className={`${ui.card} ${css.grid2}`}>
        <div>
          <div className={ui.muted}>
            <Trans>团队人数</Trans>
          </div>
          <div className={css.big} data-testid="team-size">
            {team.data?.team ?? '—'}
          </div>
        </div>
        <div>
          <div className={ui.muted}>
            <Trans>累计奖励</Trans>
          </div>
          <div className={css.big}>{team.data ? fuel(team.data.rewards, i18n.locale) : '—'}</div>
        </div>
      </section>
      <ul className={ui.list}>
        <li>
          <Link to="/referral/list" className={ui.listRow}>
            <span className={ui.listLabel}>
              <Trans>邀请记录</Trans>
            </span>
            <span aria-hidden="true">›</span>
          </Link>
        </li>
        <li>
          <Link to="/team" className={ui.listRow}>
            <span className={ui.listLabel}>
              <Trans>我的团队</Trans>
            </span>
            <span aria-hidden="true">›</span>
          </Link>
        </li>
        <li>
          <Link to="/referral/rule" className={ui.listRow}>
            <span className={ui.listLabel}>
              <Trans>邀请规则</Trans>
            </span>
            <span aria-hidden="true">›</span>
          </Link>
        </li>
      </ul>
    </Page>
  );
}
