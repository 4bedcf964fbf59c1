import { Link } from '@tanstack/react-router';
import { utcOffsetMinutes } from '../../../shared/time-zone.ts';
import { msg } from '@lingui/core/macro';
import { Plural, Trans, useLingui } from '@lingui/react/macro';
import { scheduleAt } from '../../../../contract/schedule-at.ts';
import type { BotRankEntry } from '../../../../contract/community.ts';
import * as ui from '../../../components/ui/ui.css.ts';
import * as css from '../../../shared/blocks.css.ts';
import { pct, percent, trend } from '../../../shared/format.ts';
import { useExchangeNames } from '../../../shared/exchange-names.ts';
import { Runtime } from '../../../shared/runtime.tsx';
import { botTypes } from '../../../shared/bot-types.ts';
import * as rankCss from './rank.css.ts';

/**
 * The strategy rank's rows: a bot's type, pair, ROI, largest fall, runtime and
 * cycles, never whose it is; 复制 opens the create screen of its type with its parameters filled in
 * when its owner shares them (else its pair only, and the screen says the rules are private), on any
 * account the trader has, and its figures shown beside the form. A shared DCA schedule comes in UTC and
 * is filled in at the trader's own clock.
 */
export function BotRankList({ list }: { list: BotRankEntry[] }) {
  return (
    <ol className={css.plainList} data-testid="bot-rank-list">
      {list.map((e) => (
        <BotRankRow key={`${e.rank}-${e.exchange}-${e.symbol}-${e.type}-${e.profit}-${e.runtime}-${e.cycles}-${JSON.stringify(e.params)}`} entry={e} />
      ))}
    </ol>
  );
}

function BotRankRow({ entry: e }: { entry: BotRankEntry }) {
  const { i18n } = useLingui();
  const l = i18n.locale;
  const exchangeName = useExchangeNames();
  // What the create screen shows beside its form: the original's figures (read there from the copy).
  const from = { roiPct: e.totalRoiPct, maxDrawdownPct: e.maxDrawdownPct, runtime: e.runtime, cycles: e.cycles };
  const copy = JSON.stringify(e.params ? { symbol: e.symbol, params: atOwnClock(e.params), from } : { symbol: e.symbol, from });
  return (
    <li className={rankCss.row} data-testid="bot-rank-row" data-mine={e.mine || undefined}>
      <span className={rankCss.medal[e.rank <= 3 ? (e.rank as 1 | 2 | 3) : 'other']}>
        <span className={ui.visuallyHidden}>#</span>
        {e.rank}
      </span>
      <span className={rankCss.who}>
        <span className={rankCss.name}>
          {e.symbol} · {i18n._(botTypes[e.type].name)}
          {e.mine ? <Trans> (我的)</Trans> : null}
        </span>
        <span className={css.figureLabel}>
          {exchangeName(e.exchange)} · <Trans>已实现</Trans> <span data-figure="percent">{pct(e.roiPct, l)}</span> · <Trans>最大回撤（含浮亏）</Trans>{' '}
          <span data-figure="percent">{percent(e.maxDrawdownPct, l)}</span> · <Runtime seconds={e.runtime} /> · <Plural value={e.cycles} one="# 轮" other="# 轮" />
          {e.params ? null : (
            <span data-testid="bot-rank-private">
              {' · '}
              <Trans>参数未公开</Trans>
            </span>
          )}
        </span>
      </span>
      <span className={rankCss.figures}>
        <strong className={`${css.profit[trend(e.totalRoiPct)]} ${css.numeric}`} title={i18n._(msg`总收益率（含浮动盈亏）`)} data-testid="bot-rank-roi" data-figure="percent">
          {pct(e.totalRoiPct, l)}
        </strong>
        <Link to="/strategy/$type/{-$id}" params={{ type: e.type }} search={{ copy }} className={css.primarySmallLink} data-testid="bot-rank-copy">
          <Trans>复制</Trans>
        </Link>
      </span>
    </li>
  );
}

/** A shared DCA schedule (in UTC on the rank) at the phone's own clock, the same moments. */
function atOwnClock(params: NonNullable<BotRankEntry['params']>): NonNullable<BotRankEntry['params']> {
  if (!('start' in params) || params.start.kind !== 'schedule') return params;
  return { ...params, start: scheduleAt(params.start, utcOffsetMinutes()) };
}
