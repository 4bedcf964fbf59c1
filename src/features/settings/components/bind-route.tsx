import { getRouteApi, Link } from '@tanstack/react-router';
import { Trans } from '@lingui/react/macro';
import { Page } from '../../../components/ui/page.tsx';
import * as ui from '../../../components/ui/ui.css.ts';
import { BindAccountPage, type BindType } from './bind-page.tsx';

const route = getRouteApi('/_authed/my/bind/$type');
const types: readonly string[] = ['wallet', 'email', 'mobile'];

/** /my/bind/{type}: wallet, email or mobile; anything else says so. */
export function BindAccountRoute() {
  const { type } = route.useParams();
  if (!types.includes(type)) {
    return (
      <Page title={<Trans>账号绑定</Trans>}>
        <section className={ui.card}>
          <p>
            <Trans>不支持该绑定方式。</Trans>
          </p>
          <Link to="/my">
            <Trans>返回我的</Trans>
          </Link>
        </section>
      </Page>
    );
  }
  return <BindAccountPage key={type} type={type as BindType} />;
}
