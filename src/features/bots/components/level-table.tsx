import { Trans, useLingui } from '@lingui/react/macro';
import type { LevelRow } from '../martin-form.ts';
import { num } from '../../../shared/format.ts';
import * as css from '../../../shared/blocks.css.ts';
import * as styles from './bots.css.ts';

/** Each level of a cycle: its trigger price, the quote it spends, the running total and the average it leaves. */
export function LevelTable({ rows, total, investment }: { rows: LevelRow[]; total: string; investment?: string }) {
  const { i18n } = useLingui();
  const l = i18n.locale;
  return (
    <>
      <table className={css.table} data-testid="level-table">
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
              <Trans>止盈价</Trans>
            </th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={r.index}>
              <td>{r.index}</td>
              <td>{num(r.price, l, 8)}</td>
              <td>{num(r.quote, l, 2)}</td>
              <td>{num(r.total, l, 2)}</td>
              <td>{num(r.average, l, 8)}</td>
              <td>{num(r.takeProfit, l, 8)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <p className={styles.rowSpaced}>
        <span>
          <Trans>满仓共需</Trans>
        </span>
        <strong data-testid="levels-total">
          {num(total, l, 2)} USDT{investment ? ` / ${num(investment, l, 2)}` : ''}
        </strong>
      </p>
    </>
  );
}
