import { useLingui } from '@lingui/react/macro';
import type { BotAction, BuiltBotType } from '../../../../contract/bots.ts';
import { actionDetail, actionTitle, actionTone } from '../labels.ts';
import { strategies } from '../strategies/index.ts';
import { time } from '../../../shared/format.ts';
import { useExchangeNames } from '../../../shared/exchange-names.ts';
import * as css from '../../../shared/blocks.css.ts';

/** A bot's action log: what happened, when, with its figures; `botOf` names each line's bot (the all-bots log), `symbolOf` its pair (the figures' units), `typeOf` its type (a DCA bot's orders are named as such). */
export function ActionList({
  actions,
  botOf,
  symbolOf,
  typeOf,
}: {
  actions: BotAction[];
  botOf?: (a: BotAction) => string;
  symbolOf?: (a: BotAction) => string;
  typeOf?: (a: BotAction) => BuiltBotType;
}) {
  const { i18n } = useLingui();
  const exchangeName = useExchangeNames();
  return (
    <ul className={css.plainList} data-testid="action-list">
      {actions.map((a) => (
        <li key={a.id} className={css.logItem} data-kind={a.kind}>
          <div className={css.rowTight}>
            <strong className={actionTone(a) ? css.profit[actionTone(a)!] : undefined}>{actionTitle(a, i18n, typeOf ? strategies[typeOf(a)].logTitles : undefined)}</strong>
            <span className={css.figureLabel}>{time(a.at)}</span>
          </div>
          {botOf ? (
            <div className={css.figureLabel} data-testid="action-bot">
              {botOf(a)}
            </div>
          ) : null}
          {actionDetail(a, i18n) ? <div className={css.figureLabel}>{actionDetail(a, i18n, { symbol: symbolOf?.(a), exchangeName })}</div> : null}
        </li>
      ))}
    </ul>
  );
}
