import { Trans, useLingui } from '@lingui/react/macro';
import type { GridLevels } from '../../../../../contract/bots.ts';
import { price } from '../../../../shared/format.ts';
import { refusalText } from '../../../../shared/refusal-words.ts';
import * as css from '../../../../shared/blocks.css.ts';
import { restingStateWords } from '../../components/resting-state-words.ts';

type Level = Omit<GridLevels['levels'][number], 'order'> & { order?: GridLevels['levels'][number]['order'] };

/**
 * A grid's levels, highest first, each with the order waiting there (buy, sell, or the empty level); on a
 * running bot's detail also its order on the exchange (resting, on its way, refused with the reason).
 */
export function GridLevelsList({ levels, tick }: { levels: Level[]; tick?: string }) {
  const { i18n } = useLingui();
  const onExchange = levels.some((l) => l.order !== undefined);
  return (
    <table className={css.table} data-testid="grid-levels">
      <thead>
        <tr>
          <th>#</th>
          <th>
            <Trans>价格</Trans>
          </th>
          <th>
            <Trans>挂单</Trans>
          </th>
          {onExchange ? (
            <th>
              <Trans>交易所</Trans>
            </th>
          ) : null}
        </tr>
      </thead>
      <tbody>
        {[...levels].reverse().map((l) => (
          <tr key={l.index} data-side={l.side ?? 'none'} data-order={l.order?.state ?? 'none'}>
            <td>{l.index}</td>
            <td>{price(l.price, i18n.locale, tick)}</td>
            <td className={l.side === 'buy' ? css.profit.up : l.side === 'sell' ? css.profit.down : undefined}>
              {l.side === 'buy' ? <Trans>买入</Trans> : l.side === 'sell' ? <Trans>卖出</Trans> : '—'}
            </td>
            {onExchange ? (
              <td className={l.order?.state === 'refused' ? css.profit.down : undefined}>
                {l.order ? i18n._(restingStateWords[l.order.state]) : '—'}
                {l.order?.state === 'refused' && l.order.reason ? <div className={css.figureLabel}>{refusalText(l.order.reason, i18n)}</div> : null}
              </td>
            ) : null}
          </tr>
        ))}
      </tbody>
    </table>
  );
}
