import { useState } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import { msg } from '@lingui/core/macro';
import type { MessageDescriptor } from '@lingui/core';
import type { AlertSettings } from '../../../../contract/alerts.ts';
import { alertKinds, alertModes, lockedAlertKinds, type AlertKind, type AlertMode } from '../../../../contract/alert-kinds.ts';
import { errorText } from '../../../lib/http.ts';
import { showToast } from '../../../lib/toast.ts';
import { queryClient, write } from '../../../shared/query.ts';
import * as ui from '../../../components/ui/ui.css.ts';
import * as css from './alerts.css.ts';

const kindNames: Record<AlertKind, MessageDescriptor> = {
  fills: msg`成交`,
  cycles: msg`周期完成（止盈/止损）`,
  pauses: msg`暂停与错误`,
  money: msg`资金（充值/提现/燃料）`,
  security: msg`安全`,
  exchange: msg`交易所状态`,
};
const modeNames: Record<AlertMode, MessageDescriptor> = { on: msg`开`, silent: msg`静音`, off: msg`关` };

/**
 * What each kind of alert does: on (with sound), silent, or off. A change is saved at once and shown
 * before the answer; a refusal puts the previous choice back and says why. Security is locked on.
 */
export function KindsCard({ settings, queryKey }: { settings: AlertSettings; queryKey: readonly unknown[] }) {
  const { t, i18n } = useLingui();
  const [saving, setSaving] = useState<AlertKind | null>(null);

  const choose = async (kind: AlertKind, mode: AlertMode) => {
    const before = settings.modes[kind];
    if (before === mode) return;
    const setMode = (m: AlertMode) => queryClient.setQueryData<AlertSettings>(queryKey, (old) => (old ? { ...old, modes: { ...old.modes, [kind]: m } } : old));
    setMode(mode);
    setSaving(kind);
    try {
      await write('alertSettingsSet', { modes: { [kind]: mode } }, { show: false });
    } catch (error) {
      setMode(before);
      showToast('error', t`没有保存：${errorText(error)}`);
    } finally {
      setSaving(null);
    }
  };

  return (
    <section className={ui.card} aria-labelledby="kinds-title" data-testid="alert-kinds">
      <h2 id="kinds-title" className={css.titleAlone}>
        <Trans>提醒内容</Trans>
      </h2>
      <p className={css.small}>
        <Trans>静音：显示但不响铃；关：不推送，消息中心仍可查看。</Trans>
      </p>
      <ul className={css.kinds}>
        {alertKinds.map((kind) => {
          const locked = lockedAlertKinds.includes(kind);
          const name = i18n._(kindNames[kind]);
          return (
            <li key={kind} className={css.kind} data-testid={`kind-${kind}`}>
              <span className={css.kindText}>
                <span className={css.kindName} id={`kind-${kind}-name`}>
                  {name}
                </span>
                {locked ? (
                  <span className={css.kindNote}>
                    <Trans>安全提醒无法关闭</Trans>
                  </span>
                ) : null}
              </span>
              <fieldset className={css.segmented} aria-labelledby={`kind-${kind}-name`} aria-busy={saving === kind}>
                {alertModes.map((mode) => (
                  <label key={mode} className={css.segment}>
                    <input
                      type="radio"
                      name={`kind-${kind}`}
                      value={mode}
                      className={ui.coverInput}
                      checked={(locked ? 'on' : settings.modes[kind]) === mode}
                      disabled={locked}
                      onChange={() => void choose(kind, mode)}
                    />
                    {i18n._(modeNames[mode])}
                  </label>
                ))}
              </fieldset>
            </li>
          );
        })}
      </ul>
    </section>
  );
}
