import { Trans, useLingui } from '@lingui/react/macro';
import type { MessageDescriptor } from '@lingui/core';
import type { BotDetail } from '../../../../contract/bots.ts';
import * as ui from '../../../components/ui/ui.css.ts';
import * as css from '../../../shared/blocks.css.ts';
import { amount, price } from '../../../shared/format.ts';
import { refusalText } from '../../../shared/refusal-words.ts';
import { restingStateWords } from './resting-state-words.ts';

/**
 * A martin or DCA bot's add and take profit as they rest on the exchange as limit orders: each with its
 * price, amount and state, a refused one with the exchange's reason in words. Nothing where its orders go
 * at market (the detail then lists none).
 */
export function RestingOrders({ bot, addLabel, tick, step }: { bot: BotDetail; addLabel: MessageDescriptor; tick?: string | undefined; step?: string | undefined }) {
  const { t, i18n } = useLingui();
  const l = i18n.locale;
  const orders = bot.resting ?? [];
  if (orders.length === 0) return null;
  return (
    <section className={ui.card} aria-label={t`交易所挂单`} data-testid="bot-resting">
      <h2 className={css.sectionTitle}>
        <Trans>交易所挂单</Trans>
      </h2>
      <p className={css.mutedTight.top}>
        <Trans>限价单在其价格按挂单（maker）费率成交；止损和追踪止盈在价格触及时按市价卖出。</Trans>
      </p>
      <table className={css.table}>
        <thead>
          <tr>
            <th>
              <Trans>挂单</Trans>
            </th>
            <th>
              <Trans>价格</Trans>
            </th>
            <th>
              <Trans>数量</Trans>
            </th>
            <th>
              <Trans>状态</Trans>
            </th>
          </tr>
        </thead>
        <tbody>
          {orders.map((o) => (
            <tr key={o.slot} data-slot={o.slot} data-order={o.state}>
              <td className={o.side === 'buy' ? css.profit.up : css.profit.down}>{o.slot === 'add' ? i18n._(addLabel) : t`止盈`}</td>
              <td>{price(o.price, l, tick)}</td>
              <td>{amount(o.amount, l, step)}</td>
              <td className={o.state === 'refused' ? css.profit.down : undefined}>
                {i18n._(restingStateWords[o.state])}
                {o.state === 'refused' && o.reason ? <div className={css.figureLabel}>{refusalText(o.reason, i18n)}</div> : null}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
