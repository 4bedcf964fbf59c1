import { useAtomValue, useSetAtom } from 'jotai';
import { Trans, useLingui } from '@lingui/react/macro';
import { preferencesAtom, setLanguageAtom, toggleThemeAtom } from '../../../state/preferences.ts';
import * as css from './auth.css.ts';

/** Theme and language switches on the public screens, and the brand. */
export function AuthHeader() {
  const { theme, language } = useAtomValue(preferencesAtom);
  const toggleTheme = useSetAtom(toggleThemeAtom);
  const setLanguage = useSetAtom(setLanguageAtom);
  const { t } = useLingui();
  return (
    <>
      <div className={css.topBar}>
        <button type="button" className={css.chip} onClick={() => setLanguage(language === 'zh' ? 'en' : 'zh')} title={t`切换语言`}>
          {/* The other language's name, in that language (read out as such). */}
          <span lang={language === 'zh' ? 'en' : 'zh'}>{language === 'zh' ? 'English' : '中文'}</span>
        </button>
        <button type="button" className={css.chip} onClick={() => toggleTheme()} title={t`切换主题`}>
          {theme === 'light' ? <Trans>深色</Trans> : <Trans>浅色</Trans>}
        </button>
      </div>
      <div className={css.brand}>
        <img src="/favicon.svg" width="56" height="56" alt="" />
        <h1 className={css.brandName}>QuantBot</h1>
        <p className={css.tagline}>
          <Trans>自动化策略交易，7×24 小时为你执行</Trans>
        </p>
      </div>
    </>
  );
}
