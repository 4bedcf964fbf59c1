import { getRouteApi } from '@tanstack/react-router';
import { RegisterForm } from './register-form.tsx';

// getRouteApi, not the Route object: the route file then stays out of this lazy chunk's imports.
const route = getRouteApi('/_guest/register/$referrer');

/** Registration opened from a referral link, the referrer filled in. */
export function RegisterWithReferrer() {
  const { referrer } = route.useParams();
  return <RegisterForm referrer={referrer} />;
}
