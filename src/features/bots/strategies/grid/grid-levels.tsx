import { Trans, useLingui } from '@lingui/react/macro';
import { price } from '../../../../shared/format.ts';
import * as css from '../../../../shared/blocks.css.ts';

/** A grid's levels, highest first, each with the order waiting there (buy, sell, or the empty level). */
export function GridLevelsList({ levels, tick }: { levels: { index: number; price: string; side: 'buy' | 'sell' | null }[]; tick?: string }) {
  const { i18n } = useLingui();
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
        </tr>
      </thead>
      <tbody>
        {[...levels].reverse().map((l) => (
          <tr key={l.index} data-side={l.side ?? 'none'}>
            <td>{l.index}</td>
            <td>{price(l.price, i18n.locale, tick)}</td>
            <td className={l.side === 'buy' ? css.profit.up : l.side === 'sell' ? css.profit.down : undefined}>
              {l.side === 'buy' ? <Trans>买入</Trans> : l.side === 'sell' ? <Trans>卖出</Trans> : '—'}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
