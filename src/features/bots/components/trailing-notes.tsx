import { Trans } from '@lingui/react/macro';
import * as styles from './bots.css.ts';

/**
 * Under a trailing take profit's field (martin, DCA and custom forms): the rule with the worst sale it can
 * make over the average (martin-form.ts trailingNote), and a warning when the deviation reaches the take
 * profit, where that sale can be a loss.
 */
export function TrailingNotes({ note, deviation }: { note: { worst: string; warn: boolean } | null; deviation: string }) {
  if (!note) return null;
  return (
    <>
      {note.warn ? (
        <p className={styles.trailingWarning} role="alert">
          <Trans>回调幅度不小于止盈比例：追踪卖出可能低于止盈价，甚至低于持仓均价（亏损）。</Trans>
        </p>
      ) : null}
      <p className={styles.trailingNote}>
        <Trans>
          达到止盈价后跟踪最高价，从最高价回落 {deviation.trim()}% 时卖出；最差卖出价约为均价 {note.worst}%（未计手续费）。
        </Trans>
      </p>
    </>
  );
}
