import { useState } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import { Page } from '../../../components/ui/page.tsx';
import { LoadState } from '../../../components/ui/load-state.tsx';
import * as ui from '../../../components/ui/ui.css.ts';
import { fuel, time } from '../../../shared/format.ts';
import { Pager } from '../../../shared/pager.tsx';
import { failed, loading } from '../../../shared/query.ts';
import * as css from '../../../shared/blocks.css.ts';
import { useTeam } from './use-team.ts';

const PAGE_SIZE = 10;

/** /team and /referral/list: the members (two levels), when they joined, whether they trade, what they earned the trader. */
export function TeamPage({ title }: { title: 'team' | 'list' }) {
  const { i18n } = useLingui();
  const [page, setPage] = useState(1);
  const team = useTeam(page, PAGE_SIZE);
  return (
    <Page title={title === 'team' ? <Trans>我的团队</Trans> : <Trans>邀请记录</Trans>}>
      <LoadState loading={loading(team)} failed={failed(team)} failedText={<Trans>加载失败。</Trans>} onRetry={() => void team.refetch()} />
      {team.data && team.data.list.length === 0 ? (
        <section className={ui.card}>
          <p className={ui.muted}>
            <Trans>还没有团队成员。分享你的邀请链接，好友注册后会出现在这里。</Trans>
          </p>
        </section>
      ) : null}
      <ul className={css.plainList} data-testid="team-list">
        {team.data?.list.map((m) => (
          <li key={m.sn} className={css.botCardSingle}>
            <div>
              <div className={css.botHead}>
                <span className={css.botTitle}>
                  {m.nickname} · UID {m.sn}
                </span>
                <span className={css.badge[m.running > 0 ? 'running' : 'stopped']}>{m.level === 1 ? <Trans>直推</Trans> : <Trans>二级</Trans>}</span>
              </div>
              <div className={css.figures}>
                <div>
                  <div className={css.figureValue}>{time(m.joinedAt).slice(0, 5)}</div>
                  <div className={css.figureLabel}>
                    <Trans>加入日期</Trans>
                  </div>
                </div>
                <div>
                  <div className={css.figureValue}>{m.running}</div>
                  <div className={css.figureLabel}>
                    <Trans>运行中的策略</Trans>
                  </div>
                </div>
                <div>
                  <div className={css.figureValue}>{fuel(m.rewards, i18n.locale)}</div>
                  <div className={css.figureLabel}>
                    <Trans>为你带来的奖励</Trans>
                  </div>
                </div>
              </div>
            </div>
          </li>
        ))}
      </ul>
      {team.data ? <Pager page={page} pageSize={PAGE_SIZE} total={team.data.total} onPage={setPage} /> : null}
    </Page>
  );
}

export const TeamRoute = () => <TeamPage title="team" />;
export const ReferralListRoute = () => <TeamPage title="list" />;
