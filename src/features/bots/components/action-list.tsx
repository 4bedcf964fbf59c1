import { useLingui } from '@lingui/react/macro';
import type { BotAction } from '../../../../contract/bots.ts';
import { actionDetail, actionLabels } from '../labels.ts';
import { time } from '../../../shared/format.ts';
import * as css from '../../../shared/blocks.css.ts';

/** A bot's action log: what happened, when, with its figures. */
export function ActionList({ actions }: { actions: BotAction[] }) {
  const { i18n } = useLingui();
  return (
    <ul style={{ listStyle: 'none', margin: 0, padding: 0 }} data-testid="action-list">
      {actions.map((a) => (
        <li key={a.id} className={css.logItem} data-kind={a.kind}>
          <div className={css.row} style={{ padding: 0 }}>
            <strong className={a.kind === 'failed' ? css.profit.down : a.kind === 'success' ? css.profit.up : undefined}>{i18n._(actionLabels[a.kind])}</strong>
            <span className={css.figureLabel}>{time(a.at)}</span>
          </div>
          {actionDetail(a, i18n) ? <div className={css.figureLabel}>{actionDetail(a, i18n)}</div> : null}
        </li>
      ))}
    </ul>
  );
}
