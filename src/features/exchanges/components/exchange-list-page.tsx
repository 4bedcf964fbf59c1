import { Link } from '@tanstack/react-router';
import { Trans, useLingui } from '@lingui/react/macro';
import { Page } from '../../../components/ui/page.tsx';
import { LoadState } from '../../../components/ui/load-state.tsx';
import * as ui from '../../../components/ui/ui.css.ts';
import { useExchanges } from '../use-exchanges.ts';
import { exchangeLabel } from '../../../shared/exchange-names.ts';
import * as css from './exchanges.css.ts';

/** /bind: every exchange, bound or not; a tap opens its key form. */
export function ExchangeListPage() {
  const { t, i18n } = useLingui();
  const { data, failed, reload } = useExchanges();
  return (
    <Page title={<Trans>绑定交易所</Trans>}>
      <LoadState loading={!data && !failed} failed={failed} failedText={<Trans>交易所列表加载失败。</Trans>} onRetry={reload} />
      {data ? (
        <ul className={ui.list} data-testid="exchange-list">
          {data.exchanges
            .filter((e) => !e.simulatedOf)
            .map((e) => {
              const binding = data.bindings.find((b) => b.exchangeId === e.id);
              const name = exchangeLabel(i18n, e.code, data.exchanges);
              return (
                <li key={e.id}>
                  <Link to="/bind/$exchange" params={{ exchange: e.code }} className={ui.listRow}>
                    <span className={css.logo} aria-hidden="true">
                      {name.slice(0, 1)}
                    </span>
                    <span className={css.name}>
                      {name}
                      {e.code === 'paper' ? <span className={ui.muted}> · {t`虚拟资金`}</span> : null}
                    </span>
                    {binding ? (
                      <span className={css.bound}>
                        {t`已绑定`} {binding.apiKey}
                      </span>
                    ) : (
                      <span className={ui.muted}>{t`未绑定`}</span>
                    )}
                    <span aria-hidden="true">›</span>
                  </Link>
                </li>
              );
            })}
        </ul>
      ) : null}
    </Page>
  );
}
