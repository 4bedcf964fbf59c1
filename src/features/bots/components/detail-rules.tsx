import { Trans } from '@lingui/react/macro';
import * as ui from '../../../components/ui/ui.css.ts';
import * as css from '../../../shared/blocks.css.ts';
import * as customCss from './custom-form.css.ts';

/** A bot's rules in words on its detail screen (a custom bot's rules, a DCA bot's indicator start): what it buys and sells on. */
export function DetailRulesSection({ lines }: { lines: readonly string[] | null }) {
  if (!lines) return null;
  return (
    <section className={ui.card} aria-labelledby="bot-rules-title" data-testid="bot-rules">
      <h2 id="bot-rules-title" className={css.sectionTitle}>
        <Trans>策略规则</Trans>
      </h2>
      <div className={customCss.explanation}>
        {lines.map((line) => (
          <p key={line} className={customCss.explainLine}>
            {line}
          </p>
        ))}
      </div>
    </section>
  );
}
