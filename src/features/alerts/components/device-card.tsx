import { useState } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import { useQuery } from '@tanstack/react-query';
import type { AlertSettings } from '../../../../contract/alerts.ts';
import { errorText } from '../../../lib/http.ts';
import { call, queryClient, write } from '../../../shared/query.ts';
import * as ui from '../../../components/ui/ui.css.ts';
import { endpointQuery } from '../queries.ts';
import { PushRefused, pushSupport, subscribeDevice, unsubscribeDevice, type PushSupport } from '../push.ts';
import * as css from './alerts.css.ts';

/**
 * Pushes on this device: a switch where the browser can have them, else why not and what to do
 * (install on iOS, leave a wallet's browser, re-allow in the browser's settings).
 */
export function DeviceCard({ settings, endpoint }: { settings: AlertSettings; endpoint: string | null }) {
  const { t } = useLingui();
  const [support, setSupport] = useState<PushSupport>(() => pushSupport());
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState('');
  // Fetched before the tap: the permission prompt must come first in the tap's handler, and the key should be ready when it is answered.
  const key = useQuery({ ...call('alertPushKey', undefined, { show: false }), enabled: support === 'ready', staleTime: Number.POSITIVE_INFINITY });
  const on = settings.thisDevice && endpoint !== null;

  const turnOn = async () => {
    setBusy(true);
    setFailure('');
    try {
      const sub = await subscribeDevice(async () => key.data?.publicKey ?? (await key.refetch({ throwOnError: true })).data!.publicKey);
      await write('alertSubscribe', { endpoint: sub.endpoint!, expirationTime: sub.expirationTime ?? null, keys: { p256dh: sub.keys!.p256dh!, auth: sub.keys!.auth! } }, { show: false });
      queryClient.setQueryData(endpointQuery.queryKey, sub.endpoint!);
    } catch (error) {
      if (error instanceof PushRefused) {
        if (error.reason === 'denied') setSupport('denied');
        else if (error.reason === 'dismissed') setFailure(t`没有允许通知，可再点一次开关。`);
        else setFailure(t`应用尚未就绪，请刷新页面后重试。`);
      } else {
        setFailure(t`开启失败：${errorText(error)}`);
      }
    } finally {
      setBusy(false);
    }
  };

  const turnOff = async () => {
    setBusy(true);
    setFailure('');
    try {
      // The server first: a device it still lists would go on being sent to (until the push service says it is gone).
      if (endpoint) await write('alertUnsubscribe', { endpoint }, { show: false });
      await unsubscribeDevice();
      queryClient.setQueryData(endpointQuery.queryKey, null);
    } catch (error) {
      setFailure(t`关闭失败：${errorText(error)}`);
    } finally {
      setBusy(false);
    }
  };

  const devices = settings.devices;
  return (
    <section className={ui.card} aria-labelledby="device-title" data-testid="push-device" data-state={support === 'ready' ? (on ? 'on' : 'off') : support}>
      <div className={css.head}>
        <h2 id="device-title" className={css.title}>
          <Trans>本设备</Trans>
        </h2>
        <span className={on ? css.badge.on : css.badge.off} data-testid="push-status">
          {on ? t`已开启` : t`未开启`}
        </span>
      </div>
      {support === 'ready' ? (
        <>
          <button
            type="button"
            role="switch"
            aria-checked={on}
            className={css.switchRow}
            disabled={busy || (!on && key.isError)}
            onClick={() => void (on ? turnOff() : turnOn())}
            data-testid="push-switch"
          >
            <span className={css.switchLabel}>{busy ? on ? t`正在关闭…` : t`正在开启…` : <Trans>在本设备接收通知</Trans>}</span>
            <span className={on ? css.trackOn : css.track} aria-hidden="true">
              <span className={on ? css.thumbOn : css.thumb} />
            </span>
          </button>
          <p className={css.small}>{on ? <Trans>应用关闭时也会收到提醒。</Trans> : <Trans>开启后，应用关闭时也能收到提醒。浏览器询问时请选择“允许”。</Trans>}</p>
          {key.isError && !on ? <p className={css.warning}>{t`服务器暂不支持推送通知，可以使用下方的 Webhook。`}</p> : null}
        </>
      ) : support === 'ios-install' ? (
        <div data-testid="push-ios">
          <p className={css.text}>
            <Trans>iPhone 和 iPad 需先把应用添加到主屏幕，从主屏幕打开后才能接收通知（iOS 16.4+）：</Trans>
          </p>
          <ol className={css.steps}>
            <li>
              <Trans>在 Safari 中点击底部的“分享”按钮（方框加向上箭头）。</Trans>
            </li>
            <li>
              <Trans>选择“添加到主屏幕”，再点“添加”。</Trans>
            </li>
            <li>
              <Trans>从主屏幕打开 QuantBot，在本页开启。</Trans>
            </li>
          </ol>
        </div>
      ) : support === 'wallet' ? (
        <p className={css.text} data-testid="push-wallet">
          <Trans>这里无法开启通知：钱包内置浏览器收不到推送。请在系统浏览器（Chrome 或 Safari）中打开本站后开启，或使用下方的 Webhook。</Trans>
        </p>
      ) : support === 'denied' ? (
        <div data-testid="push-denied">
          <p className={css.text}>
            <Trans>通知权限已被拒绝，本设备无法接收提醒。</Trans>
          </p>
          <p className={css.small}>
            <Trans>重新允许：地址栏左侧图标 › 网站设置 › 通知 › 允许，再刷新本页；主屏幕应用请在系统设置 › 通知中允许 QuantBot。</Trans>
          </p>
        </div>
      ) : (
        <p className={css.text} data-testid="push-unsupported">
          <Trans>此浏览器不支持推送通知。请换用新版 Chrome、Edge、Firefox 或 Safari，或使用下方的 Webhook。</Trans>
        </p>
      )}
      {failure ? (
        <div role="alert" className={ui.formError}>
          {failure}
        </div>
      ) : null}
      <p className={css.small} data-testid="push-devices">
        {devices === 0 ? <Trans>本账户还没有设备开启通知。</Trans> : <Trans>本账户共有 {devices} 台设备开启了通知。</Trans>}
      </p>
    </section>
  );
}
