import { Trans } from '@lingui/react/macro';
import { Page } from '../../../components/ui/page.tsx';
import * as ui from '../../../components/ui/ui.css.ts';
import * as css from './settings.css.ts';
import { MenuRow } from './menu-row.tsx';

/** About: the product and its build version (docs/product.md §9: 1.0.0), the user agreement, the privacy policy and where help is. */
export function AboutPage() {
  return (
    <Page title={<Trans>关于</Trans>}>
      <section className={`${ui.card} ${css.about}`}>
        <img src="/favicon.svg" width="64" height="64" alt="" />
        <h2 className={css.name}>QuantBot</h2>
        <p className={ui.muted} data-testid="app-version">
          <Trans>版本 {__APP_VERSION__}</Trans>
        </p>
        <p className={ui.muted}>
          <Trans>自动化策略交易。加密资产价格波动剧烈，量化交易不保证收益，请谨慎投资。</Trans>
        </p>
      </section>
      <ul className={ui.list} data-testid="about-links">
        <MenuRow to="/legal/$doc" params={{ doc: 'agreement' }} label={<Trans>用户协议</Trans>} />
        <MenuRow to="/legal/$doc" params={{ doc: 'privacy' }} label={<Trans>隐私政策</Trans>} />
        <MenuRow to="/notice/list" label={<Trans>帮助与支持：公告和风险提示</Trans>} />
      </ul>
    </Page>
  );
}
