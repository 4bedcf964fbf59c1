import { Link, Navigate, getRouteApi } from '@tanstack/react-router';
import { useAtomValue, useSetAtom } from 'jotai';
import { Trans } from '@lingui/react/macro';
import { Page } from '../../../components/ui/page.tsx';
import * as ui from '../../../components/ui/ui.css.ts';
import { preferencesAtom, setLanguageAtom } from '../../../state/preferences.ts';
import { Agreement } from './agreement.tsx';
import { Privacy } from './privacy.tsx';
import * as css from './legal.css.ts';

const route = getRouteApi('/legal/$doc');

/** /legal/agreement and /legal/privacy: the user agreement and the privacy policy, public, in the reader's language. */
export function LegalPage() {
  const { doc } = route.useParams();
  const { language } = useAtomValue(preferencesAtom);
  const setLanguage = useSetAtom(setLanguageAtom);
  if (doc !== 'agreement' && doc !== 'privacy') return <Navigate to="/" replace />;
  const agreement = doc === 'agreement';
  return (
    <Page
      title={agreement ? <Trans>用户协议</Trans> : <Trans>隐私政策</Trans>}
      action={
        <button type="button" className={css.language} onClick={() => setLanguage(language === 'zh' ? 'en' : 'zh')} lang={language === 'zh' ? 'en' : 'zh'}>
          {language === 'zh' ? 'English' : '中文'}
        </button>
      }
    >
      <article className={`${ui.card} ${css.doc}`} data-testid={`legal-${doc}`}>
        <p className={css.updated}>
          <Trans>更新日期：2026 年 11 月 24 日</Trans>
        </p>
        {agreement ? <Agreement /> : <Privacy />}
        <p className={css.other}>
          {agreement ? (
            <Trans>
              另见《
              <Link to="/legal/$doc" params={{ doc: 'privacy' }} replace className={css.otherLink}>
                隐私政策
              </Link>
              》
            </Trans>
          ) : (
            <Trans>
              另见《
              <Link to="/legal/$doc" params={{ doc: 'agreement' }} replace className={css.otherLink}>
                用户协议
              </Link>
              》
            </Trans>
          )}
        </p>
      </article>
    </Page>
  );
}
