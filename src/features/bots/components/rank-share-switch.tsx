import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Trans } from '@lingui/react/macro';
import { call, write } from '../../../shared/query.ts';
import * as ui from '../../../components/ui/ui.css.ts';
import * as css from '../../../shared/blocks.css.ts';

/**
 * The owner's switch: whether the strategy rank shows this bot's parameters for others to copy (off
 * until turned on: the rank shows its type, pair and figures only). It can be changed at any time and
 * changes nothing of the bot's trading.
 */
export function RankShareSwitch({ id }: { id: string }) {
  const share = useQuery(call('userBotShare', { id }));
  const [busy, setBusy] = useState(false);
  const on = share.data?.shareRules ?? false;
  const change = async (shareRules: boolean) => {
    setBusy(true);
    try {
      await write('userBotShareSet', { id, shareRules });
    } catch {
      // The client already said why (a toast); the switch stays as the server has it.
    } finally {
      setBusy(false);
    }
  };
  return (
    <section className={ui.card} data-testid="rank-share">
      <label className={css.switchRow}>
        <span>
          <Trans>在排行榜公开参数</Trans>
        </span>
        <input type="checkbox" className={css.checkbox} checked={on} disabled={busy || !share.data} onChange={(e) => void change(e.target.checked)} data-testid="rank-share-switch" />
      </label>
      <p className={css.mutedTight.top} data-testid="rank-share-note">
        {on ? (
          <Trans>已公开：其他人能在排行榜看到并复制这个策略的全部参数（定投时间按 UTC 显示，不含你的时区）。随时可关闭，不影响策略运行。</Trans>
        ) : (
          <Trans>未公开：排行榜只显示类型、交易对、收益率、运行时长和回撤，参数只有你能看到。打开后其他人可以复制参数，不影响策略运行。</Trans>
        )}
      </p>
    </section>
  );
}
