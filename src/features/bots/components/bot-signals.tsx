import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Trans, useLingui } from '@lingui/react/macro';
import { call, failed, write } from '../../../shared/query.ts';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog.tsx';
import * as ui from '../../../components/ui/ui.css.ts';
import * as css from '../../../shared/blocks.css.ts';
import { time } from '../../../shared/format.ts';
import { useCopy } from '../../../lib/use-copy.ts';
import * as styles from './bot-signals.css.ts';
import { signalActionLabels, signalStatusLabels } from '../labels.ts';
import { signalProblemWords } from '../../../../contract/signal-problems.ts';

/** The example alert body (docs/api.md "Signal webhooks"): TradingView fills {{ticker}} and {{timenow}}, so each alert has its own id. */
const EXAMPLE = '{\n  "action": "buy",\n  "id": "{{ticker}}-{{timenow}}",\n  "price": "{{close}}",\n  "note": "RSI < 30"\n}';

/**
 * A DCA or custom bot's signal webhook: its URL, shown once when made (the server keeps
 * only its hash), with a copy button; a new one on demand, after a confirmation (the old one stops
 * working); an example alert body; how many bodies it refused (counted, not listed) and the last one's
 * reason; the last signals and what became of each.
 */
export function BotSignals({ id, live }: { id: string; live: number | false }) {
  const { t, i18n } = useLingui();
  const { copied, copy } = useCopy();
  const webhook = useQuery(call('userBotWebhook', { id }));
  const signals = useQuery({ ...call('userBotSignals', { id, page: '1', page_size: '10' }), refetchInterval: live });
  const [url, setUrl] = useState('');
  const [asking, setAsking] = useState(false);
  const [busy, setBusy] = useState(false);
  const enabled = webhook.data?.enabled ?? false;
  // What was wrong with the last refused alert, in words (contract/signal-problems.ts).
  const refusedWords = signalProblemWords(webhook.data?.refusedReason ?? '', i18n.locale === 'en' ? 'en' : 'zh');

  const make = async () => {
    setBusy(true);
    try {
      const made = await write('userBotWebhookReset', { id });
      if (made.path) setUrl(`${window.location.origin}${made.path}`);
    } catch {
      // The client already said why (a toast).
    } finally {
      setBusy(false);
      setAsking(false);
    }
  };

  return (
    <section className={ui.card} aria-labelledby="bot-signals-title" data-testid="bot-signals">
      <h2 id="bot-signals-title" className={css.sectionTitle}>
        <Trans>信号（Webhook）</Trans>
      </h2>
      <p className={css.mutedTight.top}>
        <Trans>把下面的地址填入 TradingView 警报的 Webhook URL：buy 开仓，sell 或 close 按市价平仓。每个信号 id 只执行一次。</Trans>
      </p>
      {url ? (
        <div className={styles.block}>
          <div className={css.figureLabel}>
            <Trans>Webhook 地址（只显示这一次，请立即复制保存）</Trans>
          </div>
          <div className={styles.copyRow}>
            <span className={styles.mono} data-testid="webhook-url">
              {url}
            </span>
            <button type="button" className={css.smallButton} onClick={() => void copy(url)} data-testid="webhook-copy">
              {copied === url ? <Trans>已复制</Trans> : <Trans>复制</Trans>}
            </button>
          </div>
        </div>
      ) : enabled ? (
        <p className={css.mutedTight.top} data-testid="webhook-enabled">
          <Trans>已有 Webhook 地址。为了安全，地址只在生成时显示一次；忘记了请重新生成。</Trans>
        </p>
      ) : null}
      {webhook.data && webhook.data.refused > 0 ? (
        <p className={css.mutedTight.top} data-testid="webhook-refused">
          <Trans>
            已拒绝 {webhook.data.refused} 条格式不对的信号（最近一次 {time(webhook.data.refusedAt)}：{refusedWords}）。请检查警报的消息内容。
          </Trans>
        </p>
      ) : null}
      {failed(webhook) ? <p role="alert" className={css.errorLine}>{t`加载失败。`}</p> : null}
      <div className={styles.actions}>
        {webhook.data ? (
          <button type="button" className={enabled ? css.smallButton : css.primarySmall} disabled={busy} onClick={() => (enabled ? setAsking(true) : void make())} data-testid="webhook-make">
            {enabled ? <Trans>重新生成地址</Trans> : <Trans>生成 Webhook 地址</Trans>}
          </button>
        ) : null}
      </div>
      <div className={styles.block}>
        <div className={css.figureLabel}>
          <Trans>警报内容示例（JSON；action 和 id 必填，price、amount、note 可选，仅记录）</Trans>
        </div>
        <pre className={styles.example} data-testid="webhook-example">
          {EXAMPLE}
        </pre>
      </div>
      <div className={styles.block}>
        <div className={css.figureLabel}>
          <Trans>最近的信号</Trans>
        </div>
        {signals.data && signals.data.list.length === 0 ? (
          <p className={ui.muted}>
            <Trans>还没有收到信号。</Trans>
          </p>
        ) : null}
        {signals.data && signals.data.list.length > 0 ? (
          <table className={css.table} data-testid="signals-table">
            <thead>
              <tr>
                <th>
                  <Trans>时间</Trans>
                </th>
                <th>
                  <Trans>信号</Trans>
                </th>
                <th>
                  <Trans>结果</Trans>
                </th>
              </tr>
            </thead>
            <tbody>
              {signals.data.list.map((s) => (
                <tr key={s.id}>
                  <td>{time(s.at).slice(6)}</td>
                  <td className={styles.mono}>
                    {s.action ? i18n._(signalActionLabels[s.action]) : '—'} {s.signalId ?? ''}
                  </td>
                  <td>{i18n._(signalStatusLabels[s.status])}</td>
                </tr>
              ))}
            </tbody>
          </table>
        ) : null}
      </div>
      <ConfirmDialog
        open={asking}
        onOpenChange={setAsking}
        title={<Trans>重新生成 Webhook 地址</Trans>}
        description={<Trans>旧地址将立即失效，使用旧地址的警报都会被拒绝。确定重新生成吗？</Trans>}
        confirmLabel={<Trans>重新生成</Trans>}
        busy={busy}
        onConfirm={() => void make()}
      />
    </section>
  );
}
