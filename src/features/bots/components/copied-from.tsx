import { useEffect, useRef } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import * as ui from '../../../components/ui/ui.css.ts';
import * as css from '../../../shared/blocks.css.ts';
import { pct, percent, trend } from '../../../shared/format.ts';
import { Runtime } from '../../../shared/runtime.tsx';
import type { BotCopy } from '../bot-copy.ts';
import type { BotTarget } from '../use-bot-target.ts';

/** A copy's pair is chosen once, at the start (the trader may change it after). */
export function useCopiedPair(target: BotTarget, copy: BotCopy | undefined) {
  const done = useRef(false);
  const { setSymbol } = target;
  useEffect(() => {
    if (done.current || !copy?.symbol) return;
    done.current = true;
    setSymbol(copy.symbol);
  }, [copy, setSymbol]);
}

/** The original's figures beside a copy of a ranked bot. */
export function CopiedFrom({ copy }: { copy: BotCopy | undefined }) {
  const { i18n } = useLingui();
  const l = i18n.locale;
  if (!copy?.from) return null;
  const f = copy.from;
  return (
    <section className={ui.card} data-testid="copied-from">
      <div className={css.sectionTitle}>
        <Trans>复制自排行榜</Trans>
      </div>
      <div className={css.figures}>
        <div>
          <div className={`${css.figureValue} ${css.profit[trend(f.roiPct)]}`}>{pct(f.roiPct, l)}</div>
          <div className={css.figureLabel}>
            <Trans>收益率</Trans>
          </div>
        </div>
        <div>
          <div className={css.figureValue} data-figure="percent">
            {percent(f.maxDrawdownPct, l)}
          </div>
          <div className={css.figureLabel}>
            <Trans>最大回撤</Trans>
          </div>
        </div>
        <div>
          <div className={css.figureValue}>
            <Runtime seconds={f.runtime} />
          </div>
          <div className={css.figureLabel}>
            <Trans>运行时长</Trans>
          </div>
        </div>
        <div>
          <div className={css.figureValue}>{f.cycles}</div>
          <div className={css.figureLabel}>
            <Trans>完成轮次</Trans>
          </div>
        </div>
      </div>
      <p className={css.mutedTight.top} data-testid="copied-from-note">
        {copy.params ? (
          <Trans>参数已填入下方，可按你的资金调整后再创建。历史收益不代表未来表现。</Trans>
        ) : (
          <Trans>这个策略的主人没有公开参数：下方是默认参数，请自己设置。历史收益不代表未来表现。</Trans>
        )}
      </p>
    </section>
  );
}
