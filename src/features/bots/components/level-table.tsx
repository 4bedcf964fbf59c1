import { Trans, useLingui } from '@lingui/react/macro';
import type { LevelRow } from '../strategies/martin/martin-form.ts';
import { price, usdt } from '../../../shared/format.ts';
import * as css from '../../../shared/blocks.css.ts';
import * as styles from './bots.css.ts';

/** Each level of a cycle: its trigger price, the quote it spends, the running total and the average it leaves. */
export function LevelTable({ rows, total, investment, tick }: { rows: LevelRow[]; total: string; investment?: string; tick?: string }) {
  const { i18n } = useLingui();
  const l = i18n.locale;
  return (
    <>
      <table className={`${css.table} ${styles.levelTable}`} data-testid="level-table">
        <thead>
          <tr>
            <th>#</th>
            <th>
              <Trans>价格</Trans>
            </th>
            <th>
              <Trans>金额</Trans>
            </th>
            <th>
              <Trans>累计</Trans>
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
              <td>{r.index}</td>
              <td>{price(r.price, l, tick)}</td>
              <td>{usdt(r.quote, l)}</td>
              <td>{usdt(r.total, l)}</td>
              <td>{price(r.average, l, tick)}</td>
              <td>{price(r.takeProfit, l, tick)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <p className={styles.rowSpaced}>
        <span>
          <Trans>满仓共需</Trans>
        </span>
        <strong className={styles.levelsTotal} data-testid="levels-total">
          {usdt(total, l)} USDT{investment ? ` / ${usdt(investment, l)}` : ''}
        </strong>
      </p>
    </>
  );
}
