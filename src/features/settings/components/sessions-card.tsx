import { useState } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import { useQuery } from '@tanstack/react-query';
import type { SessionRow } from '../../../../contract/account.ts';
import { errorText } from '../../../lib/http.ts';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog.tsx';
import { LoadState } from '../../../components/ui/load-state.tsx';
import * as ui from '../../../components/ui/ui.css.ts';
import { dateTime } from '../../../shared/format.ts';
import { Pager } from '../../../shared/pager.tsx';
import { call, failed, loading, write } from '../../../shared/query.ts';
import { useLogout } from '../use-logout.ts';
import { deviceName } from '../device-name.ts';
import * as css from './sessions.css.ts';

const PAGE_SIZE = 10;

/**
 * The signed-in devices: each live session with its device, place (the login's IP) and last use, this
 * device marked; any other signed out on its own, or all of them at once after a confirmation. Signing
 * others out needs only a fresh login of this device (the server's window): past it, the card says so
 * and offers to log in again, never a password or a code a stranger's tries could block.
 */
export function SessionsCard() {
  const { t, i18n } = useLingui();
  const [page, setPage] = useState(1);
  const sessions = useQuery({ ...call('userSessions', { page: String(page), page_size: String(PAGE_SIZE) }, { show: false }), refetchInterval: 60_000 });
  const [busy, setBusy] = useState<string | null>(null);
  const [failure, setFailure] = useState('');
  const [confirming, setConfirming] = useState(false);
  const { logout, busy: loggingOut } = useLogout();
  const data = sessions.data;
  const fresh = data?.freshUntil ? Date.parse(data.freshUntil) > Date.now() : false;
  // The asking session is always one of the live ones.
  const others = data ? data.total - 1 : 0;

  const end = async (id: string | 'others') => {
    setBusy(id);
    setFailure('');
    try {
      if (id === 'others') await write('userSessionEndOthers', {}, { show: false });
      else await write('userSessionEnd', { id }, { show: false });
      setConfirming(false);
      if (id === 'others') setPage(1);
    } catch (error) {
      setConfirming(false);
      setFailure(errorText(error));
    } finally {
      setBusy(null);
      void sessions.refetch();
    }
  };

  const name = (s: SessionRow) => deviceName(s.agent) ?? (s.terminal === 2 ? 'iOS' : s.terminal === 3 ? 'Android' : s.terminal === 4 ? t`钱包登录` : t`未知设备`);

  return (
    <section className={ui.card} aria-labelledby="sessions-title" data-testid="sessions">
      <h2 id="sessions-title" className={css.title}>
        <Trans>登录设备</Trans>
      </h2>
      <p className={css.small}>
        <Trans>以下是当前登录你账户的设备。看到不认识的设备，请退出它并修改登录密码。</Trans>
      </p>
      <LoadState loading={loading(sessions)} failed={failed(sessions)} failedText={<Trans>登录设备加载失败。</Trans>} onRetry={() => void sessions.refetch()} />
      {data ? (
        <>
          <ul className={css.rows} aria-label={t`登录设备`}>
            {data.list.map((s) => (
              <li key={s.id} className={css.row} data-testid="session-row" data-current={s.current ? '1' : '0'}>
                <div className={css.info}>
                  <div className={css.device}>
                    <span>{name(s)}</span>
                    {s.current ? <span className={css.badge}>{t`本设备`}</span> : null}
                  </div>
                  <div className={css.meta}>
                    <Trans>
                      IP {s.ip || '—'} · 最近使用 {dateTime(s.lastSeenAt, i18n.locale)}
                    </Trans>
                  </div>
                </div>
                {!s.current && fresh ? (
                  <button type="button" className={css.endButton} disabled={busy !== null} onClick={() => void end(s.id)} data-testid="session-end">
                    {busy === s.id ? t`退出中…` : t({ message: '退出', context: 'sign a device out' })}
                  </button>
                ) : null}
              </li>
            ))}
          </ul>
          <Pager page={page} pageSize={PAGE_SIZE} total={data.total} onPage={setPage} />
          {failure ? (
            <div role="alert" className={ui.formError}>
              {failure}
            </div>
          ) : null}
          {others > 0 ? (
            fresh ? (
              <button type="button" className={ui.button.danger} disabled={busy !== null} onClick={() => setConfirming(true)} data-testid="sessions-end-others">
                <Trans>退出其他所有设备</Trans>
              </button>
            ) : (
              <div className={css.stale} data-testid="sessions-login-again">
                <p className={css.small}>
                  <Trans>为保护账户，退出其他设备需要本设备在 10 分钟内登录过：请重新登录后再操作。</Trans>
                </p>
                <button type="button" className={ui.button.secondary} disabled={loggingOut} onClick={() => void logout()}>
                  <Trans>重新登录</Trans>
                </button>
              </div>
            )
          ) : null}
          <ConfirmDialog
            open={confirming}
            onOpenChange={setConfirming}
            title={<Trans>退出其他所有设备？</Trans>}
            description={<Trans>除本设备外，所有登录你账户的设备都将立即退出，需要重新输入密码才能登录。</Trans>}
            confirmLabel={busy === 'others' ? <Trans>退出中…</Trans> : <Trans>全部退出</Trans>}
            busy={busy !== null}
            onConfirm={() => void end('others')}
          />
        </>
      ) : null}
    </section>
  );
}
