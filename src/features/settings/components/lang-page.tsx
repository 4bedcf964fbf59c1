import { useAtomValue, useSetAtom } from 'jotai';
import { Trans } from '@lingui/react/macro';
import { Page } from '../../../components/ui/page.tsx';
import * as ui from '../../../components/ui/ui.css.ts';
import { languageAtom, setLanguageAtom, type Language } from '../../../state/preferences.ts';
import * as css from './settings.css.ts';

// Each language is named in itself, so a user who cannot read the current one still finds theirs.
const options: { value: Language; label: string }[] = [
  { value: 'zh', label: '简体中文' },
  { value: 'en', label: 'English' },
];

/** Language choice: zh or en; the whole UI follows at once. */
export function LangPage() {
  const language = useAtomValue(languageAtom);
  const setLanguage = useSetAtom(setLanguageAtom);
  return (
    <Page title={<Trans>语言</Trans>}>
      <ul className={ui.list}>
        {options.map((o) => (
          <li key={o.value}>
            <label lang={o.value} className={ui.listRadioRow}>
              <input type="radio" name="language" value={o.value} checked={language === o.value} onChange={() => setLanguage(o.value)} className={ui.coverInput} />
              <span className={ui.listLabel}>{o.label}</span>
              {language === o.value ? (
                <span className={css.check} aria-hidden="true">
                  ✓
                </span>
              ) : null}
            </label>
          </li>
        ))}
      </ul>
    </Page>
  );
}
