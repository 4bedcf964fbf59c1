import { getRouteApi } from '@tanstack/react-router';
import { RegisterForm } from './register-form.tsx';

// getRouteApi, not the Route object: the route file then stays out of this lazy chunk's imports.
const route = getRouteApi('/_guest/register/{-$referrer}');

/** Registration, the referrer filled in from a referral link: /register/{referrer} or /register?code={referrer} (the path wins). */
export function RegisterWithReferrer() {
  const { referrer } = route.useParams();
  const { code } = route.useSearch();
  const filled = referrer ?? code ?? '';
  // A new link while the screen is open starts a new form with its referrer.
  return <RegisterForm key={filled} referrer={filled} />;
}
