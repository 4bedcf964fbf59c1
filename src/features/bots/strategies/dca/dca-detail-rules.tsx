import { useMemo } from 'react';
import { useLingui } from '@lingui/react/macro';
import { DetailRulesSection } from '../../components/detail-rules.tsx';
import type { DetailPartProps } from '../strategy-ui.ts';
import { explainStoredStart } from './dca-form.ts';

/** A DCA bot's indicator start in words on its detail: when it opens a deal (none for a start at once or on a schedule). */
export function DcaDetailRules({ bot }: DetailPartProps) {
  const { i18n } = useLingui();
  const lang = i18n.locale === 'en' ? 'en' : 'zh';
  const lines = useMemo(() => explainStoredStart(bot.params, lang), [bot.params, lang]);
  return <DetailRulesSection lines={lines} />;
}
