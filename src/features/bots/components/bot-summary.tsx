import { Trans, useLingui } from '@lingui/react/macro';
import type { BotDetail } from '../../../../contract/bots.ts';
import * as ui from '../../../components/ui/ui.css.ts';
import * as css from '../../../shared/blocks.css.ts';
import { useExchangeNames } from '../../../shared/exchange-names.ts';
import { ago, amount, num, price, time, usdt } from '../../../shared/format.ts';
import { pauseText } from '../../../shared/refusal-words.ts';
import { baseCoin, riskLabels } from '../labels.ts';
import { strategies } from '../strategies/index.ts';
import { Figure, Profit } from './figure.tsx';
import { BotReturns } from './returns.tsx';
import { StatusBadge } from './status-badge.tsx';
import * as styles from './bots.css.ts';

/** The detail's first card: where and what the bot trades, its status, profit, position, prices, returns, and why it is paused. */
export function BotSummary({ bot: d, tick, step }: { bot: BotDetail; tick: string | undefined; step: string | undefined }) {
  const { i18n } = useLingui();
  const l = i18n.locale;
  const exchangeName = useExchangeNames();
  const strategy = strategies[d.type];
  // The coin the bot holds, named beside its amount.
  const base = baseCoin(d.symbol);
  return (
    <section className={ui.card} data-testid="bot-summary" data-symbol={d.symbol}>
      <div className={css.botHead}>
        <span className={ui.muted}>
          {exchangeName(d.exchange)} · {i18n._(strategy.names.name)} · <Trans>第 {d.cycle} 轮</Trans>
          {d.ai ? (
            <span data-testid="bot-ai">
              {' · '}
              <Trans>
                AI {i18n._(riskLabels[d.ai.risk])}，参数调整于 {time(d.ai.tunedAt)}，空仓时会定期按最新行情重新调整
              </Trans>
            </span>
          ) : null}
        </span>
        <StatusBadge status={d.status} />
      </div>
      <div className={styles.grid2Spaced}>
        <div>
          <div className={ui.muted}>{strategy.names.gridProfit ? <Trans>网格利润 (USDT)</Trans> : <Trans>已实现收益 (USDT)</Trans>}</div>
          <div className={css.big} data-testid="bot-profit">
            <Profit value={d.profit} />
          </div>
        </div>
        <div>
          <div className={ui.muted}>
            <Trans>浮动盈亏 (USDT)</Trans>
          </div>
          <div className={css.big}>
            <Profit value={d.unrealized} />
          </div>
        </div>
      </div>
      <div className={css.figures}>
        <Figure label={<Trans>最新价</Trans>} testId="bot-price" kind="price">
          {price(d.price, l, tick)}
        </Figure>
        <Figure label={<Trans>持仓均价</Trans>} kind="price">
          {price(d.averagePrice, l, tick)}
        </Figure>
        <Figure label={<Trans>持仓 / 上限</Trans>} testId="bot-positions">
          {d.positions} / {d.maxPositions}
        </Figure>
        <Figure label={<Trans>止盈价</Trans>} kind="price">
          {price(d.takeProfitPrice, l, tick)}
        </Figure>
        <Figure label={i18n._(strategy.nextAddLabel)} kind="price">
          {price(d.nextAddPrice, l, tick)}
        </Figure>
        <Figure label={<Trans>已投入 / 投资 (USDT)</Trans>}>
          <span data-figure="quote">{usdt(d.invested, l)}</span> / <span data-figure="quote">{usdt(d.investment, l)}</span>
        </Figure>
        <Figure label={<Trans>今日收益 (USDT)</Trans>}>
          <Profit value={d.todayProfit} />
        </Figure>
        <Figure label={<Trans>持有数量 ({base})</Trans>} kind="amount">
          {amount(d.amount, l, step)}
        </Figure>
        <Figure label={<Trans>止损价</Trans>} kind="price">
          {price(d.stopLossPrice, l, tick)}
        </Figure>
        {d.trailing ? (
          <Figure label={<Trans>追踪止盈卖出价</Trans>} testId="bot-trailing" kind="price">
            {price(d.trailing.price, l, tick)}
          </Figure>
        ) : null}
      </div>
      <BotReturns bot={d} usedRoi={strategy.roiOnBudgetOnly ? undefined : d.usedRoi} />
      {Number(d.dust) > 0 ? (
        <p className={ui.muted} data-testid="bot-dust">
          <Trans>
            零头 {num(d.dust, l, 8)} {base}：手续费按币扣除、数量按交易所步长取整后剩下的币，不足一个步长暂时卖不出；它仍属于本策略，下一次卖出时一并卖出，收入计入那次收益。
          </Trans>
        </p>
      ) : null}
      {d.error ? (
        <p role="alert" className={css.errorLine} data-testid="bot-error">
          <Trans>引擎已暂停该策略：</Trans>
          {pauseText(d.error, i18n)}
        </p>
      ) : null}
      {d.pending ? (
        <p className={ui.muted} role="status">
          <Trans>订单处理中…</Trans>
        </p>
      ) : null}
      {d.priceAt ? (
        <p className={ui.muted} role="status" data-testid="bot-price-at">
          <Trans>暂时无法获取交易所行情：以上数据按 {time(d.priceAt)} 的价格计算。</Trans>
        </p>
      ) : null}
      <BotSync bot={d} />
    </section>
  );
}

/**
 * The bot against its exchange account, as the engine's last reconciliation round found it: in agreement
 * (checked how long ago), or what differs. Nothing for a stopped bot (no round checks it) or one not
 * checked yet.
 */
function BotSync({ bot: d }: { bot: BotDetail }) {
  const { i18n } = useLingui();
  const { at, problem, unreachableSince } = d.sync;
  if (d.status === 'stopped') return null;
  if (unreachableSince) {
    const since = time(unreachableSince);
    return (
      <p className={css.errorLine} role="status" data-testid="bot-sync" data-sync="unreachable">
        <Trans>交易所无法连接（{since} 起）：暂停开仓和补仓，止盈止损照常；恢复连接并核对后自动继续。</Trans>
      </p>
    );
  }
  if (at === null && problem === null) return null;
  if (problem === 'unanswered') {
    const last = at ? ago(at, i18n.locale) : null;
    return (
      <p className={ui.muted} role="status" data-testid="bot-sync" data-sync="unanswered">
        {last ? <Trans>交易所暂未回应核对，上次一致：{last}</Trans> : <Trans>交易所暂未回应核对</Trans>}
      </p>
    );
  }
  if (problem === 'no_price') {
    return (
      <p className={css.errorLine} role="status" data-testid="bot-sync" data-sync="no_price">
        <Trans>暂无交易所最新行情：暂停开仓和补仓；行情恢复并核对后自动继续。</Trans>
      </p>
    );
  }
  if (problem === 'balance_short') {
    return (
      <p className={css.errorLine} role="status" data-testid="bot-sync" data-sync="balance_short">
        <Trans>账户余额与策略持仓不符</Trans>
      </p>
    );
  }
  return (
    <p className={ui.muted} data-testid="bot-sync" data-sync="ok">
      <Trans>已与交易所核对 · {ago(at!, i18n.locale)}</Trans>
    </p>
  );
}
