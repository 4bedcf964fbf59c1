import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { Trans, useLingui } from '@lingui/react/macro';
import { call, failed, loading } from '../../../shared/query.ts';
import { Page } from '../../../components/ui/page.tsx';
import { OfflineBanner } from '../../../shared/offline-banner.tsx';
import { LoadState } from '../../../components/ui/load-state.tsx';
import { botTitle } from '../labels.ts';
import { BotOperations } from './bot-operations.tsx';
import * as css from '../../../shared/blocks.css.ts';
import { PnlPanel } from './pnl-panel.tsx';
import { BotSignals } from './bot-signals.tsx';
import { RankShareSwitch } from './rank-share-switch.tsx';
import { copyParam } from '../bot-copy.ts';
import { strategies } from '../strategies/index.ts';
import { BotSummary } from './bot-summary.tsx';
import { RestingOrders } from './resting-orders.tsx';
import { BotDetailChart } from './bot-detail-chart.tsx';
import { BotPositions } from './bot-positions.tsx';
import { livePoll, PRICED_WHILE_UP_MS } from '../../../shared/live/state.ts';

/**
 * /strategy/detail/{id}: the bot's figures, its chart with entries and targets, its operations, positions, adds and recent
 * actions; what only its type shows (a grid's levels, a custom bot's rules, the webhook of a bot that takes signals) comes from
 * the type's entry in the registry.
 */
export function BotDetailPage({ id }: { id: string }) {
  const { i18n } = useLingui();
  // A bot that trades is followed every 3 s; a stopped one no longer changes. With the live stream up, its
  // events refresh it, and its figures valued at the price every 30 s.
  const detail = useQuery({
    ...call('userBotDetail', { id }),
    refetchInterval: livePoll((q) => (q.state.data && q.state.data.status !== 'stopped' ? 3000 : false), { whileUp: PRICED_WHILE_UP_MS }),
  });
  const d = detail.data;
  const live = d !== undefined && d.status !== 'stopped' ? 3000 : false;
  // The candles need the pair, known once the detail arrives.
  const candles = useQuery({
    ...call('marketSymbols', { exchange: d?.exchange ?? '', symbol: d?.symbol ?? '', history: '1', timeframe: '1m' }, { show: false }),
    enabled: d !== undefined,
    refetchInterval: 15_000,
  });
  // This cycle's buys: the chart's entries and the table below it.
  const adds = useQuery({ ...call('userPositionAdds', { id }, { show: false }), refetchInterval: livePoll(live) });
  // Prices at the pair's tick and amounts at its step, once the market's rules are known.
  const tick = candles.data?.[0]?.tickSize ?? d?.close?.tickSize;
  const step = candles.data?.[0]?.stepSize ?? d?.close?.stepSize;
  const strategy = d ? strategies[d.type] : undefined;

  return (
    <Page title={d ? botTitle(d.symbol, d.name, i18n) : <Trans>策略详情</Trans>}>
      <OfflineBanner />
      <LoadState loading={loading(detail)} failed={failed(detail)} failedText={<Trans>策略加载失败，可能已被删除。</Trans>} onRetry={() => void detail.refetch()} />
      {d && strategy ? (
        <>
          <BotSummary bot={d} tick={tick} step={step} />
          {strategy.DetailRules ? <strategy.DetailRules bot={d} tick={tick} step={step} /> : null}
          <RestingOrders bot={d} addLabel={strategy.nextAddLine} tick={tick} step={step} />
          <BotOperations bot={d} />
          {/* Clone: a new bot of the same type, pair, exchange and parameters, as traders know from Pionex. */}
          <Link
            to="/strategy/$type/{-$id}"
            params={{ type: d.type, id: undefined }}
            search={{ exchange: d.exchange, copy: copyParam({ symbol: d.symbol, params: d.params }) }}
            className={css.linkButton.secondary}
            data-testid="bot-clone"
          >
            <Trans>复制此策略</Trans>
          </Link>
          {strategy.DetailExtras ? <strategy.DetailExtras bot={d} tick={tick} step={step} /> : null}
          <PnlPanel
            id={id}
            grid={strategy.names.gridProfit}
            now={{ realized: d.profit, unrealized: d.unrealized, total: d.totalProfit, roi: d.roi, apr: d.apr, runtime: d.runtime, startedAt: d.startedAt }}
          />
          {/* Signal bots: the webhook and the last signals. */}
          {strategy.takesSignals ? <BotSignals id={id} live={live} /> : null}
          <RankShareSwitch id={id} />
          <BotDetailChart bot={d} history={candles.data?.[0]?.history} failed={failed(candles)} adds={adds.data} tick={tick} />
        </>
      ) : null}
      <BotPositions id={id} bot={d} adds={adds.data} live={live} tick={tick} step={step} />
    </Page>
  );
}
