import { useState, type FormEvent } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import type { Quiet } from '../../../../contract/alerts.ts';
import { errorText } from '../../../lib/http.ts';
import { write } from '../../../shared/query.ts';
import * as ui from '../../../components/ui/ui.css.ts';
import { Field } from '../../../components/ui/field.tsx';
import { deviceZone, quietProblem } from '../push.ts';
import * as css from './alerts.css.ts';

/**
 * Quiet hours: off until turned on; then from and to (across midnight when "to" is earlier) in this
 * device's time zone, saved with the button. Turning them off saves at once.
 */
export function QuietCard({ quiet }: { quiet: Quiet | null }) {
  const { t } = useLingui();
  const [editing, setEditing] = useState(false);
  const [from, setFrom] = useState(quiet?.from ?? '22:00');
  const [to, setTo] = useState(quiet?.to ?? '08:00');
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  const zone = deviceZone();
  const on = quiet !== null || editing;

  const save = async (next: Quiet | null) => {
    setBusy(true);
    setError('');
    try {
      await write('alertSettingsSet', { quiet: next }, { show: false });
      setEditing(false);
    } catch (e) {
      setError(errorText(e));
    } finally {
      setBusy(false);
    }
  };

  const toggle = () => {
    if (!on) setEditing(true);
    else if (quiet === null) setEditing(false);
    else void save(null);
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const problem = quietProblem(from, to);
    if (problem) {
      setError(problem === 'same' ? t`开始和结束时间不能相同。` : t`请输入 24 小时制时间，如 22:00。`);
      return;
    }
    void save({ from, to, zone });
  };

  const changed = quiet === null || quiet.from !== from || quiet.to !== to || quiet.zone !== zone;
  return (
    <section className={ui.card} aria-labelledby="quiet-title" data-testid="quiet">
      <button type="button" role="switch" aria-checked={on} className={css.switchRow} disabled={busy} onClick={toggle} data-testid="quiet-switch">
        <span className={css.switchLabel}>
          <h2 id="quiet-title" className={css.title}>
            <Trans>免打扰时段</Trans>
          </h2>
        </span>
        <span className={on ? css.trackOn : css.track} aria-hidden="true">
          <span className={on ? css.thumbOn : css.thumb} />
        </span>
      </button>
      <p className={css.small}>
        <Trans>免打扰时段内，提醒照常送达，但不响铃、不振动。</Trans>
      </p>
      {on ? (
        <form onSubmit={submit} noValidate>
          <div className={css.times}>
            <Field label={<Trans>从</Trans>} type="time" value={from} onChange={(e) => setFrom(e.target.value)} required data-testid="quiet-from" />
            <Field label={<Trans>到</Trans>} type="time" value={to} onChange={(e) => setTo(e.target.value)} required data-testid="quiet-to" />
          </div>
          <p className={css.small} data-testid="quiet-zone">
            {quiet && quiet.zone !== zone ? (
              <Trans>
                按时区 {quiet.zone} 保存；保存后改为本设备的时区 {zone}。
              </Trans>
            ) : (
              <Trans>时区：{zone}（本设备）</Trans>
            )}
          </p>
          {error ? (
            <div role="alert" className={ui.formError}>
              {error}
            </div>
          ) : null}
          <button type="submit" className={ui.button.primary} disabled={busy || !changed} data-testid="quiet-save">
            {busy ? <Trans>保存中…</Trans> : quiet && !changed ? <Trans>已保存</Trans> : <Trans>保存</Trans>}
          </button>
        </form>
      ) : error ? (
        <div role="alert" className={ui.formError}>
          {error}
        </div>
      ) : null}
    </section>
  );
}
