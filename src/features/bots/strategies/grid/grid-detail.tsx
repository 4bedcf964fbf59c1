import { Trans, useLingui } from '@lingui/react/macro';
import type { BotDetail } from '../../../../../contract/bots.ts';
import * as ui from '../../../../components/ui/ui.css.ts';
import * as css from '../../../../shared/blocks.css.ts';
import { amount, percent } from '../../../../shared/format.ts';
import * as styles from '../../components/bots.css.ts';
import type { DetailPartProps } from '../strategy-ui.ts';
import { GridLevelsList } from './grid-levels.tsx';

/** A grid bot's own block on its detail: the grids done, the size and profit of each, whether the price left the range, and its levels. */
export function GridDetail({ bot, tick, step }: DetailPartProps) {
  const { t, i18n } = useLingui();
  const l = i18n.locale;
  const grid = bot.grid;
  if (!grid) return null;
  return (
    <section className={ui.card} aria-label={t`网格`} data-testid="bot-grid">
      <h2 className={css.sectionTitle}>
        <Trans>网格（已完成 {grid.trades} 格）</Trans>
      </h2>
      <p className={css.mutedTight.top}>
        <Trans>
          每格数量 {amount(grid.quantity, l, step)}，每格利润 {percent(grid.profit.minPct, l)} ~ {percent(grid.profit.maxPct, l)}
        </Trans>
      </p>
      <GridOutOfRange grid={grid} price={bot.price} />
      <GridLevelsList levels={grid.levels} tick={tick} />
    </section>
  );
}

/**
 * A grid whose price has left its range has nothing to do until the price comes back: said in words, not
 * left to a list of levels that looks like a stuck bot. Above the range it holds no coin (all sold);
 * below it, every buy level has filled.
 */
function GridOutOfRange({ grid, price }: { grid: NonNullable<BotDetail['grid']>; price: string }) {
  const levels = grid.levels;
  if (levels.length === 0) return null;
  const now = Number(price);
  const lower = Number(levels[0]!.price);
  const upper = Number(levels[levels.length - 1]!.price);
  if (now > upper)
    return (
      <p className={styles.stateNote} role="status" data-testid="grid-out-of-range">
        <Trans>价格高于网格上沿：持有的币已全部卖出，价格回到区间内才会再挂单。</Trans>
      </p>
    );
  if (now < lower)
    return (
      <p className={styles.stateNote} role="status" data-testid="grid-out-of-range">
        <Trans>价格低于网格下沿：买单已全部成交，价格回到区间内才会继续卖出。</Trans>
      </p>
    );
  return null;
}
