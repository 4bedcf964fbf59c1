import { useMemo } from 'react';
import { useLingui } from '@lingui/react/macro';
import { DetailRulesSection } from '../../components/detail-rules.tsx';
import type { DetailPartProps } from '../strategy-ui.ts';
import { explainStored } from './custom-form.ts';

/** A custom bot's rules in words on its detail: what it buys and sells on. */
export function CustomDetailRules({ bot }: DetailPartProps) {
  const { i18n } = useLingui();
  const lang = i18n.locale === 'en' ? 'en' : 'zh';
  const lines = useMemo(() => explainStored(bot.params, lang), [bot.params, lang]);
  return <DetailRulesSection lines={lines} />;
}
