import { useEffect, useState } from 'react';
import { useAtomValue, useSetAtom } from 'jotai';
import { Trans, useLingui } from '@lingui/react/macro';
import { Page } from '../../../components/ui/page.tsx';
import * as ui from '../../../components/ui/ui.css.ts';
import * as css from './settings.css.ts';
import { showToast, type ToastKind } from '../../../lib/toast.ts';
import { isLoggedInAtom } from '../../../state/session.ts';
import { preferencesAtom, setLanguageAtom, toggleThemeAtom } from '../../../state/preferences.ts';

const kinds: ToastKind[] = ['success', 'error', 'warning', 'info'];

/** Diagnostics for support and testing: build, preferences, session and connectivity; toast preview. */
export function TestPage() {
  const { t } = useLingui();
  const prefs = useAtomValue(preferencesAtom);
  const loggedIn = useAtomValue(isLoggedInAtom);
  const toggleTheme = useSetAtom(toggleThemeAtom);
  const setLanguage = useSetAtom(setLanguageAtom);
  const [online, setOnline] = useState(navigator.onLine);
  useEffect(() => {
    const update = () => setOnline(navigator.onLine);
    window.addEventListener('online', update);
    window.addEventListener('offline', update);
    return () => {
      window.removeEventListener('online', update);
      window.removeEventListener('offline', update);
    };
  }, []);
  const rows: [string, string][] = [
    [t`版本`, __APP_VERSION__],
    [t`语言`, prefs.language],
    [t`主题`, prefs.theme],
    [t`登录状态`, loggedIn ? t`已登录` : t`未登录`],
    [t`网络`, online ? t`在线` : t`离线`],
  ];
  return (
    <Page title={<Trans>测试页</Trans>}>
      <p className={ui.muted}>
        <Trans>此页面用于诊断和测试，不需要登录。</Trans>
      </p>
      <ul className={ui.list} data-testid="diagnostics">
        {rows.map(([k, v]) => (
          <li key={k} className={ui.listRow}>
            <span className={ui.listLabel}>{k}</span>
            <span className={ui.listValue}>{v}</span>
          </li>
        ))}
      </ul>
      <div className={css.testCard}>
        {kinds.map((kind) => (
          <button key={kind} type="button" className={ui.button.secondary} onClick={() => showToast(kind, t`这是一条提示：${kind}`)}>
            <Trans>提示预览：{kind}</Trans>
          </button>
        ))}
        <button type="button" className={ui.button.secondary} onClick={() => toggleTheme()}>
          <Trans>切换主题</Trans>
        </button>
        <button type="button" className={ui.button.secondary} onClick={() => setLanguage(prefs.language === 'zh' ? 'en' : 'zh')}>
          <Trans>切换语言</Trans>
        </button>
      </div>
    </Page>
  );
}
