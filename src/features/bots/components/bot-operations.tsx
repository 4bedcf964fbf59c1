import { useState } from 'react';
import { Link, useNavigate } from '@tanstack/react-router';
import { Trans, useLingui } from '@lingui/react/macro';
import type { BotOperation, BotSummary } from '../../../../contract/bots.ts';
import { errorText } from '../../../lib/http.ts';
import { showToast } from '../../../lib/toast.ts';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog.tsx';
import { operationLabels } from '../labels.ts';
import { StopChoice } from './stop-choice.tsx';
import * as css from '../../../shared/blocks.css.ts';
import { write } from '../../../shared/query.ts';
import { strategies } from '../strategies/index.ts';

/** What a bot in each state can do (docs/product.md §4): the buttons of the detail screen. */
const available: Record<BotSummary['status'], ('start' | 'pause' | 'resume' | 'stop' | 'delete')[]> = {
  running: ['pause', 'stop'],
  paused: ['resume', 'stop'],
  stopped: ['start', 'delete'],
};
const asks = new Set<BotOperation>(['stop', 'delete']);

/** Every figure the operation moves is fetched again by `write` (lists, counts, this detail, bills). */
export function BotOperations({ bot }: { bot: BotSummary }) {
  const { i18n } = useLingui();
  const navigate = useNavigate();
  const [busy, setBusy] = useState(false);
  const [asking, setAsking] = useState<BotOperation | null>(null);
  const [failure, setFailure] = useState('');
  // On stop, a bot that holds coins keeps them (the default) or sells them all to USDT first (Pionex's choice).
  const [sell, setSell] = useState(false);
  // A grid holds the coins on its sell levels (its positions); selling them all is its close, as a martin's.
  const holding = bot.positions > 0;

  const run = async (action: BotOperation) => {
    setAsking(null);
    setFailure('');
    setBusy(true);
    try {
      await write('userBotOperation', { id: bot.id, action, ...(action === 'stop' && sell && holding ? { sell: '1' as const } : {}) });
      showToast('success', `${i18n._(operationLabels[action])} ✓`);
      if (action === 'delete') await navigate({ to: '/strategy', replace: true });
    } catch (e) {
      setFailure(errorText(e));
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <div className={css.actions}>
        {available[bot.status].map((a) => (
          <button
            key={a}
            type="button"
            className={a === 'delete' || a === 'stop' ? css.dangerSmall : css.primarySmall}
            disabled={busy}
            onClick={() => (asks.has(a) ? setAsking(a) : void run(a))}
            data-testid={`op-${a}`}
          >
            {i18n._(operationLabels[a])}
          </button>
        ))}
        {bot.status !== 'running' ? (
          <Link to="/strategy/$type/{-$id}" params={{ type: bot.type, id: bot.id }} className={css.smallLink} data-testid="op-edit">
            <Trans>编辑</Trans>
          </Link>
        ) : null}
        {bot.status !== 'stopped' && strategies[bot.type].manualTrading ? (
          <Link to="/strategy/action/$id" params={{ id: bot.id }} className={css.smallLink} data-testid="op-manual">
            <Trans>补仓/平仓</Trans>
          </Link>
        ) : null}
      </div>
      {failure ? (
        <div role="alert" className={css.errorLine} data-testid="op-failure">
          {failure}
        </div>
      ) : null}
      <ConfirmDialog
        open={asking !== null}
        onOpenChange={(open) => !open && setAsking(null)}
        title={asking === 'delete' ? <Trans>删除策略</Trans> : <Trans>停止策略</Trans>}
        description={
          asking === 'delete' ? (
            <Trans>删除后策略和它的记录将从列表中移除，无法恢复。确定删除吗？</Trans>
          ) : holding ? (
            <Trans>停止后不再自动补仓和止盈。持有的币怎么处理？</Trans>
          ) : (
            <Trans>停止后不再自动补仓和止盈，已买入的币保留在交易所账户中。确定停止吗？</Trans>
          )
        }
        confirmLabel={asking ? i18n._(operationLabels[asking]) : ''}
        busy={busy}
        onConfirm={() => asking && void run(asking)}
      >
        {asking === 'stop' && holding ? <StopChoice sell={sell} onSell={setSell} /> : null}
      </ConfirmDialog>
    </>
  );
}
