import { useAtom, useAtomValue, useSetAtom } from 'jotai';
import { Trans, useLingui } from '@lingui/react/macro';
import { Page } from '../../../components/ui/page.tsx';
import * as ui from '../../../components/ui/ui.css.ts';
import { preferencesAtom, toggleThemeAtom } from '../../../state/preferences.ts';
import { priceColorsAtom } from '../price-colors.ts';
import { InstallRow } from './install-row.tsx';
import { MenuRow } from './menu-row.tsx';
import * as css from './settings.css.ts';
import * as blocks from '../../../shared/blocks.css.ts';

/** Settings: the dark-theme switch, which colour a rise takes, installing the app, and the way to language and about. */
export function SettingPage() {
  const { t } = useLingui();
  const { theme, language } = useAtomValue(preferencesAtom);
  const toggleTheme = useSetAtom(toggleThemeAtom);
  const dark = theme === 'dark';
  const [colors, setColors] = useAtom(priceColorsAtom);
  return (
    <Page title={<Trans>设置</Trans>}>
      <ul className={ui.list}>
        <li>
          <button type="button" role="switch" aria-checked={dark} className={ui.listRow} onClick={() => toggleTheme()} data-testid="theme-switch">
            <span className={ui.listLabel}>
              <Trans>深色模式</Trans>
            </span>
            <span className={dark ? css.switchTrackOn : css.switchTrack} aria-hidden="true">
              <span className={dark ? css.switchThumbOn : css.switchThumb} />
            </span>
          </button>
        </li>
        <li className={ui.listRow}>
          <span className={ui.listLabel} id="price-colors-label">
            <Trans>涨跌颜色</Trans>
          </span>
          <span className={css.colorChoices} role="radiogroup" aria-labelledby="price-colors-label">
            {(['green-up', 'red-up'] as const).map((c) => (
              <label key={c} className={blocks.chipOption} data-testid={`colors-${c}`}>
                <input type="radio" name="price-colors" value={c} checked={colors === c} onChange={() => setColors(c)} className={ui.coverInput} />
                {c === 'green-up' ? <Trans>绿涨红跌</Trans> : <Trans>红涨绿跌</Trans>}
              </label>
            ))}
          </span>
        </li>
        <InstallRow />
        <MenuRow to="/my/notifications" label={<Trans>通知</Trans>} />
        <MenuRow to="/lang" label={<Trans>语言</Trans>} value={language === 'zh' ? '简体中文' : 'English'} />
        <MenuRow to="/about" label={<Trans>关于</Trans>} value={t`版本 ${__APP_VERSION__}`} />
      </ul>
    </Page>
  );
}
