import { useState } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import { plural } from '@lingui/core/macro';
import { api } from '../../../lib/api.ts';
import { errorText } from '../../../lib/http.ts';
import { showToast } from '../../../lib/toast.ts';
import * as ui from '../../../components/ui/ui.css.ts';
import * as css from './alerts.css.ts';

/** Sends a test alert to every device and the webhook, and says where it went (or that there is nowhere yet). */
export function TestCard() {
  const { t } = useLingui();
  const [busy, setBusy] = useState(false);
  const [note, setNote] = useState('');

  const send = async () => {
    setBusy(true);
    setNote('');
    try {
      const { devices, webhook } = await api.alertTest(undefined, { show: false });
      if (devices === 0 && !webhook) setNote(t`没有可发送的地方：请先开启本设备通知或设置 Webhook。`);
      else if (devices === 0) showToast('success', t`已发送到 Webhook`);
      else
        showToast(
          'success',
          webhook ? plural(devices, { one: '已发送到 # 台设备和 Webhook', other: '已发送到 # 台设备和 Webhook' }) : plural(devices, { one: '已发送到 # 台设备', other: '已发送到 # 台设备' }),
        );
    } catch (error) {
      setNote(errorText(error));
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className={ui.card} aria-labelledby="test-title" data-testid="alert-test">
      <h2 id="test-title" className={css.titleAlone}>
        <Trans>测试</Trans>
      </h2>
      <p className={css.small}>
        <Trans>发送到所有已开启通知的设备和 Webhook。</Trans>
      </p>
      {note ? (
        <div role="alert" className={ui.formError}>
          {note}
        </div>
      ) : null}
      <button type="button" className={ui.button.secondary} disabled={busy} onClick={() => void send()} data-testid="alert-test-send">
        {busy ? <Trans>发送中…</Trans> : <Trans>发送测试通知</Trans>}
      </button>
    </section>
  );
}
