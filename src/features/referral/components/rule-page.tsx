import { Trans } from '@lingui/react/macro';
import { Page } from '../../../components/ui/page.tsx';
import * as ui from '../../../components/ui/ui.css.ts';
import * as css from './referral.css.ts';
import { useTeam } from './use-team.ts';

const pct = (rate: string | undefined) => (rate === undefined ? '—' : `${+(Number(rate) * 100).toFixed(4)}%`);

/** /referral/rule: how inviting works and what it earns, with the server's reward rates. */
export function ReferralRulePage() {
  const team = useTeam(1, 1);
  const first = pct(team.data?.rates[0]);
  const second = pct(team.data?.rates[1]);
  return (
    <Page title={<Trans>邀请规则</Trans>}>
      <section className={ui.card}>
        <ol className={css.rules}>
          <li>
            <Trans>你的邀请码就是你的 UID。好友通过你的链接或邀请码注册（包括钱包首次登录），即成为你的直推成员。</Trans>
          </li>
          <li>
            <Trans>
              好友的策略每完成一轮盈利会支付燃料手续费：直推成员支付的手续费，你获得 {first}；直推成员邀请的人支付的手续费，你获得 {second}。
            </Trans>
          </li>
          <li>
            <Trans>奖励在手续费扣除的同时计入你的"奖励"资产，可在资产明细中查看每一笔。</Trans>
          </li>
          <li>
            <Trans>邀请人只能修改一次，且不能填写自己或自己团队中的成员。</Trans>
          </li>
        </ol>
      </section>
    </Page>
  );
}
