import { Trans, useLingui } from '@lingui/react/macro';
import type { DcaRow } from './dca-form.ts';
import { percent, price, usdt } from '../../../../shared/format.ts';
import * as css from '../../../../shared/blocks.css.ts';
import * as styles from '../../components/bots.css.ts';

/** A DCA deal as planned: the base order and each safety order's price, size, and the average and take-profit price after it; the funds a deal can need. */
export function DcaTable({ rows, funds, investment, stop, tick }: { rows: DcaRow[]; funds: string; investment: string; stop: string | null; tick?: string | undefined }) {
  const { i18n } = useLingui();
  const l = i18n.locale;
  return (
    <>
      {/* Six columns of a pair's prices ("68,222.92") need more than 320 px: the table scrolls in its own box, not the page. */}
      <div className={css.wideTable}>
        <table className={`${css.table} ${styles.levelTable}`} data-testid="dca-table">
          <thead>
            <tr>
              <th>#</th>
              <th>
                <Trans context="dca table">偏差</Trans>
              </th>
              <th>
                <Trans>价格</Trans>
              </th>
              <th>
                <Trans>金额</Trans>
              </th>
              <th>
                <Trans>均价</Trans>
              </th>
              <th>
                <Trans context="level table">止盈价</Trans>
              </th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr key={r.index}>
                <td>{r.index === 0 ? <Trans context="dca table">底</Trans> : r.index}</td>
                <td>{r.index === 0 ? '—' : `-${percent(r.deviation, l)}`}</td>
                <td>{price(r.price, l, tick)}</td>
                <td>{usdt(r.quote, l)}</td>
                <td>{price(r.average, l, tick)}</td>
                <td>{price(r.takeProfit, l, tick)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {stop ? (
        <p className={styles.rowSpaced}>
          <span>
            <Trans>止损价</Trans>
          </span>
          <strong className={styles.levelsTotal} data-testid="dca-stop">
            {price(stop, l, tick)}
          </strong>
        </p>
      ) : null}
      <p className={styles.rowSpaced}>
        <span>
          <Trans>每单最多需要</Trans>
        </span>
        <strong className={styles.levelsTotal} data-testid="dca-funds">
          {usdt(funds, l)} USDT / {usdt(investment, l)}
        </strong>
      </p>
    </>
  );
}
