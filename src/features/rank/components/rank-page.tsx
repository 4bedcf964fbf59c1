import { useState } from 'react';
import { msg } from '@lingui/core/macro';
import type { MessageDescriptor } from '@lingui/core';
import { Plural, Trans, useLingui } from '@lingui/react/macro';
import { useQuery, type UseQueryResult } from '@tanstack/react-query';
import type { AnswerOf } from '../../../../contract/calls.ts';
import type { RankEntry, RankPeriod } from '../../../../contract/community.ts';
import { call, failed, keepPage } from '../../../shared/query.ts';
import { Page } from '../../../components/ui/page.tsx';
import { LoadState } from '../../../components/ui/load-state.tsx';
import * as ui from '../../../components/ui/ui.css.ts';
import { profit, trend } from '../../../shared/format.ts';
import { Pager } from '../../../shared/pager.tsx';
import * as css from '../../../shared/blocks.css.ts';
import * as rankCss from './rank.css.ts';
import { BotRankList } from './bot-rank-list.tsx';
import { storedTradingMode } from '../../../shared/use-trading-mode.ts';

const PAGE_SIZE = 20;
const periods: [RankPeriod, MessageDescriptor][] = [
  ['1d', msg`今日`],
  ['7d', msg`7 天`],
  ['30d', msg`30 天`],
  ['all', msg`全部`],
];
const modes: ['live' | 'simulation', MessageDescriptor][] = [
  ['live', msg`实盘`],
  ['simulation', msg`模拟`],
];

const views: ['traders' | 'bots', MessageDescriptor][] = [
  ['traders', msg`交易员`],
  ['bots', msg`策略`],
];

/**
 * /rank: traders by realised profit over a period, live and simulation apart, with the trader's own
 * place; or bots by ROI, whose parameters a trader copies into a bot of their own.
 */
export function RankPage() {
  const { i18n } = useLingui();
  const [view, setView] = useState<'traders' | 'bots'>('traders');
  // The tab the trader has data in: the mode their strategy list shows (kept on the device, else by their bindings: Paper only, simulation).
  const [mode, setMode] = useState<'live' | 'simulation'>(() => storedTradingMode() ?? 'live');
  const [period, setPeriod] = useState<RankPeriod>('30d');
  const [page, setPage] = useState(1);
  const query = { mode, period, page: String(page), limit: String(PAGE_SIZE) };
  const rank = useQuery({ ...call('marketUserRank', query, { show: false }), ...keepPage, enabled: view === 'traders' });
  const bots = useQuery({ ...call('marketBotRank', query, { show: false }), ...keepPage, enabled: view === 'bots' });
  const pick =
    <T,>(set: (v: T) => void) =>
    (v: T) => {
      set(v);
      setPage(1);
    };
  const data = rank.data;
  return (
    <Page title={<Trans>排行</Trans>} root>
      <div className={css.chips} role="tablist" aria-label={i18n._(msg`排行类型`)}>
        {views.map(([v, label]) => (
          <button key={v} type="button" role="tab" aria-selected={v === view} className={css.chip} onClick={() => pick(setView)(v)} data-testid={`rank-view-${v}`}>
            {i18n._(label)}
          </button>
        ))}
      </div>
      <div className={css.chips} role="tablist" aria-label={i18n._(msg`实盘或模拟`)}>
        {modes.map(([m, label]) => (
          <button key={m} type="button" role="tab" aria-selected={m === mode} className={css.chip} onClick={() => pick(setMode)(m)}>
            {i18n._(label)}
          </button>
        ))}
      </div>
      <div className={css.chips} role="tablist" aria-label={i18n._(msg`周期`)}>
        {periods.map(([p, label]) => (
          <button key={p} type="button" role="tab" aria-selected={p === period} className={css.chip} onClick={() => pick(setPeriod)(p)}>
            {i18n._(label)}
          </button>
        ))}
      </div>
      {view === 'bots' ? <BotRank query={bots} page={page} onPage={setPage} /> : null}
      {view === 'traders' ? (
        <>
          <section className={ui.card} data-testid="rank-me">
            <div className={ui.muted}>
              <Trans>我的排名</Trans>
            </div>
            {data?.me ? (
              <div className={css.rowTight}>
                <strong className={css.big}>#{data.me.rank}</strong>
                <span className={`${css.big} ${css.profit[trend(data.me.profit)]}`} data-figure="quote">
                  {profit(data.me.profit, i18n.locale)}
                </span>
              </div>
            ) : (
              <p className={rankCss.empty}>{data ? <Trans>本周期还没有完成的盈利轮次，完成一轮后即可上榜。</Trans> : '—'}</p>
            )}
          </section>
          <LoadState loading={data === undefined && !failed(rank)} failed={failed(rank)} failedText={<Trans>排行加载失败。</Trans>} onRetry={() => void rank.refetch()} />
          {data ? (
            <section className={ui.card} aria-busy={false}>
              {data.list.length === 0 ? (
                <p className={ui.muted}>
                  <Trans>本周期暂无上榜用户。</Trans>
                </p>
              ) : null}
              <ol className={css.plainList} data-testid="rank-list">
                {data.list.map((e) => (
                  <RankRow key={`${e.rank}-${e.uid}-${e.nickname}`} entry={e} />
                ))}
              </ol>
              <Pager page={page} pageSize={PAGE_SIZE} total={data.total} onPage={setPage} />
              <p className={css.mutedTight.bottom}>
                <Trans>按周期内已完成轮次的已实现收益 (USDT) 排名；实盘与模拟分开排名。</Trans>
              </p>
            </section>
          ) : null}
        </>
      ) : null}
    </Page>
  );
}

function RankRow({ entry: e }: { entry: RankEntry }) {
  const { i18n } = useLingui();
  return (
    <li className={rankCss.row} data-me={e.me || undefined}>
      <span className={rankCss.medal[e.rank <= 3 ? (e.rank as 1 | 2 | 3) : 'other']}>
        <span className={ui.visuallyHidden}>#</span>
        {e.rank}
      </span>
      <span className={rankCss.who}>
        <span className={rankCss.name}>
          {e.nickname}
          {e.me ? <Trans> (我)</Trans> : null}
        </span>
        <span className={css.figureLabel}>
          UID {e.uid} · <Plural value={e.cycles} one="# 轮" other="# 轮" />
        </span>
      </span>
      <strong className={`${css.profit[trend(e.profit)]} ${css.numeric}`} data-figure="quote">
        {profit(e.profit, i18n.locale)}
      </strong>
    </li>
  );
}

function BotRank({ query, page, onPage }: { query: UseQueryResult<AnswerOf<'marketBotRank'>>; page: number; onPage: (p: number) => void }) {
  const data = query.data;
  return (
    <>
      <LoadState loading={data === undefined && !failed(query)} failed={failed(query)} failedText={<Trans>排行加载失败。</Trans>} onRetry={() => void query.refetch()} />
      {data ? (
        // Busy while the previous page stays on screen as the next one loads.
        <section className={ui.card} aria-busy={query.isPlaceholderData} data-testid="bot-rank">
          {data.list.length === 0 ? (
            <p className={ui.muted}>
              <Trans>本周期暂无上榜策略。</Trans>
            </p>
          ) : null}
          <BotRankList list={data.list} />
          <Pager page={page} pageSize={PAGE_SIZE} total={data.total} onPage={onPage} />
          <p className={css.mutedTight.bottom}>
            <Trans>按周期内已完成轮次的收益率（已实现收益 / 投资额）排名，不显示策略的主人。复制只复制参数，历史收益不代表未来表现。</Trans>
          </p>
        </section>
      ) : null}
    </>
  );
}
