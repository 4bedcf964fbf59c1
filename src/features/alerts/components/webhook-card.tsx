import { useState, type FormEvent } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import * as Dialog from '@radix-ui/react-dialog';
import { errorText } from '../../../lib/http.ts';
import { useCopy } from '../../../lib/use-copy.ts';
import { write } from '../../../shared/query.ts';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog.tsx';
import { Field } from '../../../components/ui/field.tsx';
import * as dialog from '../../../components/ui/dialog.css.ts';
import * as ui from '../../../components/ui/ui.css.ts';
import { webhookUrlOk } from '../push.ts';
import * as css from './alerts.css.ts';

/**
 * The account's webhook, for traders without pushes: an https URL the server posts each alert to,
 * signed with a secret shown once when the URL is saved. The server refuses addresses it must not
 * reach (private networks): its words show under the field.
 */
export function WebhookCard({ webhook }: { webhook: { url: string } | null }) {
  const { t } = useLingui();
  const [url, setUrl] = useState(webhook?.url ?? '');
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  const [secret, setSecret] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);

  const save = async (event: FormEvent) => {
    event.preventDefault();
    if (!webhookUrlOk(url)) {
      setError(t`请输入以 https:// 开头的完整网址。`);
      return;
    }
    setBusy(true);
    setError('');
    try {
      const answer = await write('alertWebhookSet', { url: url.trim() }, { show: false });
      setUrl(answer.url);
      setSecret(answer.secret);
    } catch (e) {
      setError(errorText(e));
    } finally {
      setBusy(false);
    }
  };

  const remove = async () => {
    setBusy(true);
    setError('');
    try {
      await write('alertWebhookDelete', {}, { show: false });
      setUrl('');
    } catch (e) {
      setError(errorText(e));
    } finally {
      setConfirming(false);
      setBusy(false);
    }
  };

  return (
    <section className={ui.card} aria-labelledby="webhook-title" data-testid="webhook">
      <div className={css.head}>
        <h2 id="webhook-title" className={css.title}>
          Webhook
        </h2>
        <span className={webhook ? css.badge.on : css.badge.off}>{webhook ? t`已设置` : t`未设置`}</span>
      </div>
      <p className={css.small}>
        <Trans>收不到推送时，服务器可把每条提醒以 JSON POST 到你的网址。</Trans>
      </p>
      <form onSubmit={save} noValidate>
        <Field
          label={<Trans>网址（https）</Trans>}
          type="url"
          inputMode="url"
          autoComplete="off"
          placeholder="https://example.com/quantbot"
          // A URL is in no language (zxx): the zh screen's field holds Latin letters on purpose.
          lang="zxx"
          value={url}
          onChange={(e) => setUrl(e.target.value)}
          error={error || undefined}
          data-testid="webhook-url"
        />
        <div className={webhook ? css.actions : undefined}>
          {webhook ? (
            <button type="button" className={ui.button.danger} disabled={busy} onClick={() => setConfirming(true)} data-testid="webhook-delete">
              <Trans>删除</Trans>
            </button>
          ) : null}
          <button type="submit" className={ui.button.primary} disabled={busy || url.trim() === '' || url.trim() === webhook?.url} data-testid="webhook-save">
            {busy ? <Trans>保存中…</Trans> : <Trans>保存</Trans>}
          </button>
        </div>
      </form>
      <SecretDialog secret={secret} onClose={() => setSecret(null)} />
      <ConfirmDialog
        open={confirming}
        onOpenChange={setConfirming}
        title={<Trans>删除 Webhook？</Trans>}
        description={<Trans>删除后不再发送提醒，密钥作废。</Trans>}
        confirmLabel={busy ? <Trans>删除中…</Trans> : <Trans>删除</Trans>}
        busy={busy}
        onConfirm={() => void remove()}
      />
    </section>
  );
}

/** How the server signs each request (server/webhooks): the receiver recomputes v1 over the timestamp and the raw body. */
const SIGNATURE_HEADER = 'X-Quantbot-Signature: t=<unix>,v1=<hex>';

/** The signing secret, this once, with how a receiver checks a request with it. */
function SecretDialog({ secret, onClose }: { secret: string | null; onClose: () => void }) {
  const { t } = useLingui();
  const { copied, copy } = useCopy();
  return (
    <Dialog.Root open={secret !== null} onOpenChange={(open) => (open ? undefined : onClose())}>
      <Dialog.Portal>
        <Dialog.Overlay className={dialog.overlay} />
        <Dialog.Content className={dialog.content} data-testid="webhook-secret-dialog">
          <Dialog.Title className={dialog.title}>
            <Trans>Webhook 已保存</Trans>
          </Dialog.Title>
          <Dialog.Description className={css.warning}>
            <Trans>保存此密钥，之后不再显示。</Trans>
          </Dialog.Description>
          <div className={css.secretRow}>
            <span className={css.secret} data-testid="webhook-secret">
              {secret}
            </span>
            <button type="button" className={css.copyButton} onClick={() => void copy(secret ?? '')}>
              {copied === secret ? t`已复制` : t`复制`}
            </button>
          </div>
          <p className={css.small}>
            <Trans>
              每个请求带有签名头 <code className={css.code}>{SIGNATURE_HEADER}</code>：t 是发送时的 Unix 秒数，v1 是以此密钥对 t + "." + 请求体 计算的 HMAC-SHA256（十六进制）。
            </Trans>
          </p>
          <Dialog.Close asChild>
            <button type="button" className={ui.button.primary} data-testid="webhook-secret-done">
              <Trans>我已保存密钥</Trans>
            </button>
          </Dialog.Close>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
