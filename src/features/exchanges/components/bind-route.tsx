import { getRouteApi } from '@tanstack/react-router';
import { BindPage } from './bind-page.tsx';

const route = getRouteApi('/_authed/bind/$exchange');

/** The /bind/{exchange} screen; another exchange gets a fresh form. */
export function BindRoute() {
  const { exchange } = route.useParams();
  return <BindPage key={exchange} code={exchange} />;
}
