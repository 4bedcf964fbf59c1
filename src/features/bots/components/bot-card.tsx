import { Link } from '@tanstack/react-router';
import { Trans, useLingui } from '@lingui/react/macro';
import type { BotSummary } from '../../../../contract/bots.ts';
import { usdt } from '../../../shared/format.ts';
import { Figure, Profit } from './figure.tsx';
import { StatusBadge } from './status-badge.tsx';
import { BotReturns } from './returns.tsx';
import * as css from '../../../shared/blocks.css.ts';
import * as styles from './bots.css.ts';
import { pauseText } from '../../../shared/refusal-words.ts';
import { botTitle, riskLabels } from '../labels.ts';
import { botTypes } from '../../../shared/bot-types.ts';

/** A bot in the list: name, pair, exchange, status, profit, the open cycle, its returns (total, ROI, APR, runtime); a checkbox in select mode. */
export function BotCard({ bot, exchangeName, selecting, selected, onSelect }: { bot: BotSummary; exchangeName: string; selecting: boolean; selected: boolean; onSelect: (on: boolean) => void }) {
  const { t, i18n } = useLingui();
  return (
    <li className={selecting ? css.botCard : css.botCardSingle} data-testid="bot-card" data-bot-id={bot.id} data-symbol={bot.symbol}>
      {selecting ? <input type="checkbox" className={css.checkbox} checked={selected} onChange={(e) => onSelect(e.target.checked)} aria-label={t`选择 ${bot.name}`} /> : null}
      <Link to="/strategy/detail/$id" params={{ id: bot.id }} className={css.botLink}>
        <div className={css.botHead}>
          <span className={css.botTitle}>{botTitle(bot.symbol, bot.name, i18n)}</span>
          <StatusBadge status={bot.status} />
        </div>
        <div className={styles.cardMeta}>
          {exchangeName} · {i18n._(botTypes[bot.type].name)}
          {bot.ai ? (
            <span data-testid="bot-ai">
              {' · AI '}
              {i18n._(riskLabels[bot.ai.risk])}
            </span>
          ) : null}{' '}
          · <Trans>第 {bot.cycle} 轮</Trans>
        </div>
        <div className={css.figures}>
          <Figure label={botTypes[bot.type].gridProfit ? <Trans>网格利润 (USDT)</Trans> : <Trans>已实现收益 (USDT)</Trans>}>
            <Profit value={bot.profit} />
          </Figure>
          <Figure label={<Trans>持仓 / 上限</Trans>}>
            {bot.positions} / {bot.maxPositions}
          </Figure>
          <Figure label={<Trans>已投入 (USDT)</Trans>} kind="quote">
            {usdt(bot.invested, i18n.locale)}
          </Figure>
        </div>
        <BotReturns bot={bot} />
        {bot.error ? (
          <p className={css.errorLine} role="status">
            {pauseText(bot.error, i18n)}
          </p>
        ) : null}
      </Link>
    </li>
  );
}
