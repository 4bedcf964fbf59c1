import { useEffect, useState } from 'react';
import { Navigate, useNavigate } from '@tanstack/react-router';
import { useQuery } from '@tanstack/react-query';
import { msg } from '@lingui/core/macro';
import type { MessageDescriptor } from '@lingui/core';
import { Trans, useLingui } from '@lingui/react/macro';
import type { BotCreateInput } from '../../../../contract/bots.ts';
import type { AiProposal, AiSearchAnswer } from '../../../../contract/strategy.ts';
import { api } from '../../../lib/api.ts';
import { errorText } from '../../../lib/http.ts';
import { showToast } from '../../../lib/toast.ts';
import { Page } from '../../../components/ui/page.tsx';
import { LoadState } from '../../../components/ui/load-state.tsx';
import { Field } from '../../../components/ui/field.tsx';
import * as ui from '../../../components/ui/ui.css.ts';
import { num, pct, percent, profit, trend } from '../../../shared/format.ts';
import { useBotTarget } from '../use-bot-target.ts';
import { strategies } from '../strategies/index.ts';
import { OfflineBanner } from '../../../shared/offline-banner.tsx';
import { BotFormNotices, BotTargetFields } from './bot-target-fields.tsx';
import { EquityChart } from './equity-chart.tsx';
import { defaultSlippage, type Slippage, slippagePercent, slippages } from '../slippage.ts';
import * as css from '../../../shared/blocks.css.ts';
import { failed, write } from '../../../shared/query.ts';
import * as styles from './bots.css.ts';
import { RestingFillNote } from './resting-fill-note.tsx';

type Risk = AiSearchAnswer['risk'];
const risks: [Risk, MessageDescriptor, MessageDescriptor][] = [
  ['conservative', msg`稳健`, msg`30 天最大回撤 ≤ 5%，更看重回撤`],
  ['balanced', msg`平衡`, msg`30 天最大回撤 ≤ 10%，收益与回撤并重`],
  ['aggressive', msg`进取`, msg`30 天最大回撤 ≤ 25%，更看重收益`],
];

/**
 * How long the screen waits for a search's answer: far above its 3-9 s on this machine, for a search
 * that waits in the line behind others. Meanwhile the line's place and the search's progress are asked
 * every second (each of those calls keeps docs/product.md §9's 15 s), so the wait is never silent.
 */
const AI_SEARCH_TIMEOUT_MS = 120_000;

/** /strategy/ai/{id?}: the AI bot. Without an id: search parameters for a pair, investment and risk level, pick a proposal and start it; with one: that bot. */
export function AiPage({ id }: { id?: string | undefined }) {
  if (id) return <Navigate to="/strategy/detail/$id" params={{ id }} replace />;
  return <AiSearchPage />;
}

function AiSearchPage() {
  const { t, i18n } = useLingui();
  const navigate = useNavigate();
  const target = useBotTarget(undefined);
  const [investment, setInvestment] = useState('1000');
  const [risk, setRisk] = useState<Risk>('balanced');
  const [slip, setSlip] = useState<Slippage>(defaultSlippage);
  const [busy, setBusy] = useState(false);
  const [seconds, setSeconds] = useState(0);
  const [answer, setAnswer] = useState<AiSearchAnswer | null>(null);
  const [failure, setFailure] = useState('');
  const [starting, setStarting] = useState<number | null>(null);
  // A proposal that could not be started says why under its own button, not at the top.
  const [refused, setRefused] = useState<{ index: number; text: string } | null>(null);
  const [round, setRound] = useState(0);
  // While the search waits in the server's line, the trader sees how many are before theirs (each search its own question).
  const queue = useQuery({ queryKey: ['strategyAiQueue', null, round], queryFn: () => api.strategyAiQueue(undefined, { show: false }), enabled: busy, refetchInterval: 1000, gcTime: 0 });
  const ahead = busy ? (queue.data?.position ?? 0) : 0;
  const progress = busy && ahead === 0 ? (queue.data?.progress ?? null) : null;
  useEffect(() => {
    if (!busy) return;
    setSeconds(0);
    const timer = setInterval(() => setSeconds((s) => s + 1), 1000);
    return () => clearInterval(timer);
  }, [busy]);
  // An answer belongs to the pair, investment, risk and slippage it was searched with: changing them clears it.
  const inputs = JSON.stringify([target.exchangeId, target.symbol, investment, risk, slip]);
  const [answeredInputs, setAnsweredInputs] = useState(inputs);
  if (inputs !== answeredInputs) {
    setAnsweredInputs(inputs);
    setAnswer(null);
  }
  const validInvestment = /^\d+(\.\d{1,8})?$/.test(investment) && Number(investment) > 0;

  const run = async () => {
    if (target.exchangeId === null || !validInvestment) return;
    setRound((r) => r + 1);
    setBusy(true);
    setFailure('');
    try {
      setAnswer(await api.strategyAiSearch({ exchangeId: target.exchangeId, symbol: target.symbol, investment, risk, slippage: slip }, { show: false, timeout: AI_SEARCH_TIMEOUT_MS }));
    } catch (e) {
      setFailure(errorText(e));
    } finally {
      setBusy(false);
    }
  };

  const start = async (p: AiProposal, index: number) => {
    if (target.exchangeId === null) return;
    setStarting(index);
    setFailure('');
    setRefused(null);
    try {
      const name = target.name.trim() || `AI ${target.symbol}`;
      const base = { exchangeId: target.exchangeId, symbol: target.symbol, name, ai: { risk } };
      const bot = await write('userBotCreate', { ...base, type: p.type, params: p.params } as BotCreateInput, { show: false });
      // What the server changed of the proposal (a grid moved to the price now): said.
      const note = strategies[p.type].ai?.startNote?.(p.params, bot.params, i18n);
      if (note) showToast('info', note);
      await write('userBotOperation', { id: bot.id, action: 'start' }, { show: false });
      await navigate({ to: '/strategy/detail/$id', params: { id: bot.id }, replace: true });
    } catch (e) {
      setRefused({ index, text: errorText(e) });
    } finally {
      setStarting(null);
    }
  };

  // The fill model of the candidates' backtests: at the trigger (a stop at the open on a gap; on Paper, the second that reached it), with this slippage.
  const slippage = answer ? slippagePercent(answer.fill.slippage, i18n.locale) : '';

  return (
    <Page title={<Trans>AI 策略</Trans>}>
      <OfflineBanner />
      <LoadState loading={target.loading} failed={failed(target.bindings)} failedText={<Trans>加载失败。</Trans>} onRetry={() => void target.bindings.refetch()} />
      <BotFormNotices target={target} id={undefined} />
      {!target.loading && !target.noBinding ? (
        <>
          <BotTargetFields target={target} id={undefined} />
          <section className={ui.card}>
            <Field
              label={<Trans>投资金额（USDT）</Trans>}
              inputMode="decimal"
              value={investment}
              onChange={(e) => setInvestment(e.target.value.trim())}
              error={investment && !validInvestment ? t`请输入大于 0 的金额` : undefined}
              data-testid="ai-investment"
            />
            <div className={styles.riskLabel}>
              <Trans>风险偏好</Trans>
            </div>
            <div className={css.chips} role="radiogroup" aria-label={t`风险偏好`}>
              {risks.map(([r, label]) => (
                <label key={r} className={css.chipOption} data-testid={`risk-${r}`}>
                  <input type="radio" name="ai-risk" value={r} checked={r === risk} onChange={() => setRisk(r)} className={ui.coverInput} />
                  {i18n._(label)}
                </label>
              ))}
            </div>
            <p className={css.mutedTight.top}>{i18n._(risks.find(([r]) => r === risk)![2])}</p>
            {/* The slippage the candidates' backtests assume against the trader on every fill. */}
            <div className={styles.riskLabel}>
              <Trans>回测滑点</Trans>
            </div>
            <div className={css.chips} role="radiogroup" aria-label={t`回测滑点`} data-testid="ai-slippage">
              {slippages.map((s) => (
                <label key={s} className={css.chipOption}>
                  <input type="radio" name="ai-slippage" value={s} checked={s === slip} onChange={() => setSlip(s)} className={ui.coverInput} />
                  {slippagePercent(s, i18n.locale)}%
                </label>
              ))}
            </div>
            <button type="button" className={ui.button.primary} disabled={busy || !validInvestment || target.exchangeId === null} onClick={() => void run()} data-testid="ai-search">
              {busy ? <Trans>搜索中… {seconds} 秒</Trans> : <Trans>搜索最佳参数</Trans>}
            </button>
            {busy ? <progress className={styles.progress} aria-label={t`搜索进度`} data-testid="ai-progress" {...(progress ? { value: progress.done, max: progress.total } : {})} /> : null}
            {busy && ahead > 0 ? (
              <p className={ui.muted} role="status" data-testid="ai-queue">
                <Trans>排队中：前面还有 {ahead} 个搜索。</Trans>
              </p>
            ) : null}
            {busy && ahead === 0 ? (
              <p className={ui.muted} role="status" data-testid="ai-progress-text">
                {progress ? (
                  <Trans>
                    已回测 {progress.done} / {progress.total} 组参数（最近 30 天和 7 天的行情）。
                  </Trans>
                ) : (
                  // Measured on a 2-core server: 0.3-1.9 s per pair, up to 2.8 s beside another trader's backtests (docs/performance.md).
                  <Trans>正在用最近 30 天和 7 天的行情回测数百组马丁格尔和网格参数，通常 1-3 秒；服务器繁忙时会更久，这里会显示进度。</Trans>
                )}
              </p>
            ) : null}
            {failure ? (
              <div role="alert" className={ui.formError}>
                {failure}
              </div>
            ) : null}
          </section>
          {answer ? (
            <section aria-label={t`方案`} data-testid="ai-proposals">
              <p className={ui.muted}>
                <Trans>
                  测试了 {answer.tried} 组参数（{answer.timeframe} K 线），{answer.kept} 组 30 天最大回撤不超过 {answer.limit}%，以下为评分最高的方案（用时{' '}
                  {num(answer.elapsedMs / 1000, i18n.locale, 1)} 秒）。
                </Trans>{' '}
                <span data-testid="ai-fill">
                  {answer.fill.seconds ? (
                    <Trans>回测按模拟盘逐秒行情回放：挂单在触发价成交，止损按触及那一秒的价格，滑点 {slippage}%。</Trans>
                  ) : (
                    <Trans>回测成交价：触发价（跳空时止损按开盘价），滑点 {slippage}%。</Trans>
                  )}
                  <RestingFillNote resting={answer.fill.resting} />
                </span>
              </p>
              {answer.proposals.length === 0 ? (
                <p className={ui.card}>
                  <Trans>没有符合该风险偏好的方案，可以换一个交易对或风险偏好再试。</Trans>
                </p>
              ) : null}
              {answer.proposals.map((p, i) => (
                <ProposalCard
                  key={`${p.type}:${JSON.stringify(p.params)}`}
                  p={p}
                  index={i}
                  kept={answer.kept}
                  busy={starting !== null}
                  starting={starting === i}
                  refused={refused?.index === i ? refused.text : ''}
                  onStart={() => void start(p, i)}
                />
              ))}
            </section>
          ) : null}
        </>
      ) : null}
    </Page>
  );
}

function ProposalCard({ p, index, kept, busy, starting, refused, onStart }: { p: AiProposal; index: number; kept: number; busy: boolean; starting: boolean; refused: string; onStart: () => void }) {
  const { t, i18n } = useLingui();
  const l = i18n.locale;
  const strategy = strategies[p.type];
  const Summary = strategy.ai?.Summary;
  return (
    <article className={ui.card} data-testid="ai-proposal">
      <div className={css.botHead}>
        <strong>
          {index + 1}. {i18n._(strategy.names.name)}
        </strong>
        <span className={ui.muted}>
          <Trans>
            评分 {num(p.score, l, 2)} · 第 {index + 1}/{kept}
          </Trans>
        </span>
      </div>
      <p className={styles.aiNote}>{Summary ? <Summary params={p.params} /> : null}</p>
      <div className={css.figures}>
        <div>
          <div className={`${css.figureValue} ${css.profit[trend(p.d30.returnPct)]}`}>{pct(p.d30.returnPct, l)}</div>
          <div className={css.figureLabel}>
            <Trans>30 天收益率</Trans>
          </div>
        </div>
        <div>
          <div className={css.figureValue} data-figure="percent">
            {percent(p.d30.maxDrawdownPct, l)}
          </div>
          <div className={css.figureLabel}>
            <Trans>30 天最大回撤</Trans>
          </div>
        </div>
        <div>
          <div className={`${css.figureValue} ${css.profit[trend(p.d7.returnPct)]}`}>{pct(p.d7.returnPct, l)}</div>
          <div className={css.figureLabel}>
            <Trans>7 天收益率</Trans>
          </div>
        </div>
        <div>
          <div className={css.figureValue}>{p.d30.cycles}</div>
          <div className={css.figureLabel}>
            <Trans>30 天完成轮次</Trans>
          </div>
        </div>
        <div>
          <div className={css.figureValue} data-figure="percent">
            {percent(p.d7.maxDrawdownPct, l)}
          </div>
          <div className={css.figureLabel}>
            <Trans>7 天最大回撤</Trans>
          </div>
        </div>
        <div>
          <div className={`${css.figureValue} ${css.profit[trend(p.d30.realized)]}`} data-figure="quote">
            {profit(p.d30.realized, l)}
          </div>
          <div className={css.figureLabel}>
            <Trans>30 天已实现</Trans>
          </div>
        </div>
      </div>
      <EquityChart points={p.equity} investment={Number(p.params.investment)} label={t`资金曲线`} locale={l} />
      <button type="button" className={ui.button.primary} disabled={busy} onClick={onStart} data-testid="ai-start">
        {starting ? <Trans>启动中…</Trans> : <Trans>使用此方案并启动</Trans>}
      </button>
      {refused ? (
        <div role="alert" className={ui.formError} data-testid="ai-start-error">
          {refused}
        </div>
      ) : null}
    </article>
  );
}
